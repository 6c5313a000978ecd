/**
 * The hostile corpus (corpus/): every file, and every generated input, gets the answer written
 * beside it, through the command line that parses exactly as the app does.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GENERATED } from '../../corpus/generated.ts';
import { main } from './main.ts';

const corpus = fileURLToPath(new URL('../../corpus/', import.meta.url));

interface Expect {
  exit: number;
  says: string;
  never?: string;
  env?: Record<string, string>;
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
        const fetchSpy = vi.fn(async () => new Response('[]'));
        vi.stubGlobal('fetch', fetchSpy);
        try {
          check(await cli('run', join(corpus, name)), run, [answer.never]);
          // Nothing in the corpus may reach the network without the person allowing it.
          for (const call of fetchSpy.mock.calls as unknown as [string, RequestInit][]) expect(JSON.stringify(call[1]?.headers ?? {})).not.toContain('ghp_');
        } finally {
          vi.unstubAllGlobals();
          vi.unstubAllEnvs();
        }
      });
    }
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
