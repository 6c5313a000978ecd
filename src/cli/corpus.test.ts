/**
 * The hostile corpus (corpus/): every file, and every generated input, gets the answer written
 * beside it, through the command line that parses exactly as the app does.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { parse as parseDotenv } from 'dotenv';
import { micromark } from 'micromark';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GENERATED } from '../../corpus/generated.ts';
import { decodeText } from '../graph/bytes.ts';
import { originOf } from '../graph/hosts.ts';
import { parseGraph } from '../graph/parse.ts';
import { visibleText } from '../graph/visible.ts';
import { readAllowances } from '../skills/environmentKeys.ts';
import { graphIdOf } from '../graph/index.ts';
import { cannotExport } from './export.ts';
import { localPagesOnlyConfig } from './localPages.ts';
import { main } from './main.ts';

const corpus = fileURLToPath(new URL('../../corpus/', import.meta.url));

interface Expect {
  exit: number;
  says: string;
  never?: string;
  env?: Record<string, string>;
  /** The service answers every call with a redirect there. */
  redirectTo?: string;
  /** What the person allows on the command line (`--host`, `--grant`), so that the file's own rule is what refuses. */
  args?: string[];
}
interface Answer {
  why: string;
  validate: Expect;
  run?: Expect;
  never?: string;
}

const cli = async (...argv: string[]) => {
  const lines: string[] = [];
  const code = await main(argv, { out: (line) => lines.push(line), err: (line) => lines.push(line) });
  return { code, text: lines.join('\n') };
};

const check = (result: { code: number; text: string }, expected: Expect, never: (string | undefined)[]) => {
  expect(result.text).toContain(expected.says);
  expect(result.code, result.text).toBe(expected.exit);
  for (const banned of [...never, expected.never]) if (banned) expect(result.text).not.toContain(banned);
  // A refusal is a message, never a stack trace.
  expect(result.text).not.toMatch(/\n\s+at \S+ \(/);
};

describe('the hostile corpus', async () => {
  const answers: Record<string, Answer> = JSON.parse(await readFile(join(corpus, 'answers.json'), 'utf8'));

  it('has an answer for every file and a file for every answer', async () => {
    const files = (await readdir(corpus)).filter((name) => name.endsWith('.json') && name !== 'answers.json');
    expect(files.sort()).toEqual(Object.keys(answers).sort());
  });

  describe.each(Object.entries(answers))('%s', (name, answer) => {
    it(`validate: ${answer.why}`, async () => {
      check(await cli('validate', join(corpus, name)), answer.validate, [answer.never]);
    });
    if (answer.run) {
      const run = answer.run;
      it('run', async () => {
        for (const [key, value] of Object.entries(run.env ?? {})) vi.stubEnv(key, value);
        const fetchSpy = vi.fn(async () => (run.redirectTo ? new Response(null, { status: 307, headers: { location: run.redirectTo } }) : new Response('[]')));
        vi.stubGlobal('fetch', fetchSpy);
        try {
          check(await cli('run', join(corpus, name), ...(run.args ?? [])), run, [answer.never]);
          // Nothing in the corpus may reach the network without the person allowing it.
          for (const call of fetchSpy.mock.calls as unknown as [string, RequestInit][]) expect(JSON.stringify(call[1]?.headers ?? {})).not.toContain('ghp_');
          // Nor a host it was redirected to.
          if (run.redirectTo) for (const [url] of fetchSpy.mock.calls as unknown as [string][]) expect(new URL(url).origin).not.toBe(new URL(run.redirectTo).origin);
        } finally {
          vi.unstubAllGlobals();
          vi.unstubAllEnvs();
        }
      });
    }
  });
});

/** The graph a corpus file holds, when it is one. */
const graphOf = async (name: string) => {
  const text = decodeText(await readFile(join(corpus, name)));
  const parsed = text.ok ? parseGraph(text.value) : null;
  return parsed?.ok ? parsed.value : null;
};

const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

describe('the hostile corpus, exported as LangGraph projects: each file written parses back to exactly what was meant', async () => {
  const names = (await readdir(corpus)).filter((name) => name.endsWith('.json') && name !== 'answers.json');
  const exportable = (await Promise.all(names.map(async (name) => [name, await graphOf(name)] as const))).filter(([, graph]) => graph && cannotExport(graph) === null);
  let folder = '';
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'loopscope-corpus-export-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('exports the files that are graphs', () => {
    expect(exportable.map(([name]) => name)).toEqual(expect.arrayContaining(['markdown-name.json', 'proto-key-names.json', 'github-token.json', 'ansi-names.json', 'bidi-name.json']));
  });

  it.each(exportable)('%s', async (name, graph) => {
    if (!graph) throw new Error(name);
    const dir = join(folder, name);
    const result = await cli('export', join(corpus, name), '--langgraph', dir);
    expect(result.code, result.text).toBe(0);
    const read = (file: string) => readFile(join(dir, file), 'utf8');
    const id = graphIdOf(graph);

    // .env.example: exactly the key names, empty; the allowance commented out, and what it says once uncommented.
    const keys = new Map<string, Set<string>>();
    for (const skill of Object.values(graph.skills))
      if (skill.type === 'llm' && skill.apiKeyName) keys.set(skill.apiKeyName, new Set([...(keys.get(skill.apiKeyName) ?? []), originOf(skill.baseUrl) as string]));
    const example = await read('.env.example');
    expect(parseDotenv(example)).toEqual(Object.fromEntries([...keys.keys()].map((key) => [key, ''])));
    const allowance = example.split('\n').filter((line) => line.startsWith('# LOOPSCOPE_KEYS=')).map((line) => line.slice(2));
    expect(allowance.map((line) => readAllowances(parseDotenv(line).LOOPSCOPE_KEYS))).toEqual(keys.size ? [{ allowed: keys }] : []);
    expect(await read('.env')).toBe('');

    // README.md: one heading (the graph id), the name as text, no HTML or link of the file's.
    const readme = micromark(await read('README.md'));
    expect(readme).toContain(`from the graph “${html(visibleText(graph.name))}”`);
    expect(readme.match(/<h\d/g)).toEqual(['<h1']);
    expect(readme).toMatch(new RegExp(`^<h1>${id}</h1>`));
    expect(readme).not.toMatch(/<(script|a|b|img)\b/);

    // The JSON files: exactly the intended values.
    expect(JSON.parse(await read('langgraph.json'))).toEqual({ node_version: '20', graphs: { [id]: './src/graph.ts:graph' }, dependencies: ['.'], env: '.env', ...localPagesOnlyConfig() });
    expect(JSON.parse(await read('package.json'))).toMatchObject({ name: id, description: `Exported by Loopscope from the graph “${visibleText(graph.name)}”` });
    expect(parseGraph(await read('src/graph.json'))).toEqual({ ok: true, value: graph });
  });
});

describe('the generated corpus', () => {
  let folder = '';
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'loopscope-corpus-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it.each(GENERATED.map((generated) => [generated.name, generated] as const))('%s', async (name, generated) => {
    const file = join(folder, name);
    await writeFile(file, generated.text());
    check(await cli('validate', file), { ...generated.answer.validate }, []);
  });
});
