import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type GraphFile } from '../graph/index.ts';
import { parseGraph } from '../graph/parse.ts';
import { TEMPLATES } from '../graph/templates/index.ts';
import { FIXTURES } from '../runtime/fixtures/index.ts';
import { agentState, applyScenario, nodeNames, runGraph } from '../runtime/index.ts';
import { graphIdOf } from '../graph/index.ts';
import { cannotExport, exportLangGraph } from './export.ts';
import { main } from './main.ts';
import { serverEnvironment } from './serve.ts';
import { withStopWords } from '../runtime/testing.ts';


const root = fileURLToPath(new URL('../../', import.meta.url));
const graphFile = async (path: string) => {
  const parsed = parseGraph(await readFile(join(root, path), 'utf8'));
  if (!parsed.ok) throw new Error(path);
  return parsed.value;
};
const graphFixture = (name: string) => graphFile(`src/graph/fixtures/${name}.json`);

type Exported = (file: unknown, env?: Record<string, string>) => {
  stream: (input: unknown, options: unknown) => Promise<AsyncIterable<[string, Record<string, unknown>]>>;
};

let dir: string;
let exportedGraph: Exported;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loopscope-export-'));
  // The project's imports of LangGraph resolve to Loopscope's own copy, as `loopscope serve` does it.
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const securityclaw = TEMPLATES.find((template) => template.id === 'securityclaw')?.graph() as GraphFile;
  await exportLangGraph(securityclaw, dir);
  ({ exportedGraph } = (await import(join(dir, 'src/loopscope-runtime.js'))) as { exportedGraph: Exported });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The nodes the exported graph's in-process stream visits, and the agent state it ends with. */
const streamExported = async (graph: GraphFile, seed: number, env?: Record<string, string>) => {
  const compiled = exportedGraph(JSON.parse(JSON.stringify(graph)), env);
  const names = new Map([...nodeNames(graph)].map(([id, name]) => [name, id]));
  const path: string[] = [];
  let last: Record<string, unknown> = {};
  for await (const [mode, chunk] of await compiled.stream({}, { streamMode: ['updates', 'values'], configurable: { seed } })) {
    if (mode === 'values') last = chunk;
    else path.push(...Object.keys(chunk).map((name) => names.get(name) ?? name));
  }
  return { path, state: agentState(last) };
};

const startable = [
  ...TEMPLATES.filter((template) => cannotExport(template.graph()) === null).map((template) => [`template ${template.id}`, template.graph] as const),
  // Every template scenario too: inner loops in every kind, errors that route, verdicts from tools, approvals answered.
  ...TEMPLATES.flatMap((template) => template.graph().scenarios.map((scenario) => [`template ${template.id}, scenario "${scenario.name}"`, () => applyScenario(template.graph(), scenario)] as const)),
  ['fixture two-actions', FIXTURES.twoActions] as const,
  // A loop that only max steps ends: 3000 steps locally would outlast the test on a loaded machine; 200 still ends on max_steps.
  ['fixture loop', () => ({ ...FIXTURES.loop(), limits: { ...FIXTURES.loop().limits, maxSteps: 200 } })] as const,
  ['fixture securityclaw-v0', () => graphFixture('securityclaw-v0')] as const,
  ['fixture spec-example', () => graphFixture('spec-example')] as const,
  // `contains` on recovery.tried (issue 54, #11): both ways, the exported graph reads the list as the runtime does.
  ...['the wider search answers', 'a recovery tried once is not tried again'].map((name) => [`example recovery-tried, scenario "${name}"`, async () => {
    const graph = await graphFile('examples/recovery-tried/graph.json');
    return applyScenario(graph, graph.scenarios.find((scenario) => scenario.name === name)!);
  }] as const),
];

describe('loopscope export --langgraph', () => {
  it('writes the project: langgraph.json naming ./src/graph.ts:graph, pinned dependencies, the graph as data, no key', async () => {
    const langgraph = JSON.parse(await readFile(join(dir, 'langgraph.json'), 'utf8'));
    expect(langgraph.graphs).toEqual({ 'securityclaw-triage': './src/graph.ts:graph' });
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    const own = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    expect(pkg.dependencies['@langchain/langgraph']).toBe(own.dependencies['@langchain/langgraph']);
    expect(pkg.devDependencies['@langchain/langgraph-cli']).toBe('1.5.1');
    for (const version of [...Object.values(pkg.dependencies), ...Object.values(pkg.devDependencies)]) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    const graphTs = await readFile(join(dir, 'src/graph.ts'), 'utf8');
    expect(graphTs).toContain('export const graph = exportedGraph(');
    expect(graphTs).not.toContain('SecurityClaw');
    expect(parseGraph(await readFile(join(dir, 'src/graph.json'), 'utf8')).ok).toBe(true);
  });

  it.each(startable)('%s: the exported graph visits the nodes `loopscope run` does, for the same seed, and ends in the same state', async (_, load) => {
    const graph = await load();
    for (const seed of [7]) {
      const trace = await runGraph(graph, { seed, compact: true });
      const exported = await streamExported(graph, seed);
      expect(exported.path).toEqual(trace.steps.map((step) => step.node));
      expect(exported.state).toEqual(trace.finalState);
    }
  });

  it('keeps loop.onToolFailure "observe" on a Verify: a crashed check the decider read last verifies nothing, so the exported graph goes back to think', async () => {
    const graph = TEMPLATES.find((template) => template.id === 'graph-engineer')?.graph() as GraphFile;
    const check = graph.nodes.find((node) => node.id === 'check') as { config: { loop: Record<string, unknown> } };
    check.config.loop.onToolFailure = 'observe';
    graph.skills.check_cause = { ...graph.skills.check_cause, script: [{ outcome: 'ok', records: [{ ok: true }] }, { outcome: 'error', error: 'the checker crashed' }, { outcome: 'ok', records: [{ ok: true }] }] } as GraphFile['skills'][string];
    const call = (tool: string) => ({ outcome: 'ok' as const, reply: { tool, args: {} } });
    graph.skills.reviewer = { ...graph.skills.reviewer, script: [call('check_cause'), call('check_cause'), { outcome: 'ok', reply: { done: true, output: {} } }, call('check_cause'), { outcome: 'ok', reply: { done: true, output: {} } }] } as GraphFile['skills'][string];
    const exported = await streamExported(graph, 7);
    expect(exported.path).toEqual(['gather', 'think', 'run', 'check', 'think', 'run', 'check', 'report']);
    expect(exported.path).toEqual((await runGraph(graph, { seed: 7, compact: true })).steps.map((step) => step.node));
  });

  it('a state field LangGraph cannot keep (toString) is refused alike by run, export and the exported graph, never renamed', async () => {
    const graph = { ...FIXTURES.twoActions(), state: { ...FIXTURES.twoActions().state, toString: 'mine' } };
    const refusal = 'the state field "toString" is named like a member every JavaScript object has, which LangGraph cannot keep as a field: rename it';
    expect(cannotExport(graph)).toBe(refusal);
    expect(withStopWords(await runGraph(graph, { seed: 1 }))).toMatchObject({ stopReason: 'error', stopExplain: refusal, steps: [] });
    // A project whose src/graph.json was given such a field by hand.
    expect(() => exportedGraph(JSON.parse(JSON.stringify(graph)))).toThrow(refusal);
  });

  it('keeps limits.onBudget: the project\'s graph.json says "evaluate", and its graph evaluates once the budget is spent, then stops', async () => {
    const template = TEMPLATES.find((candidate) => candidate.id === 'budget-evaluate')?.graph() as GraphFile;
    const other = await mkdtemp(join(tmpdir(), 'loopscope-export-'));
    try {
      await exportLangGraph(template, other);
      const parsed = parseGraph(await readFile(join(other, 'src/graph.json'), 'utf8'));
      if (!parsed.ok) throw new Error('graph.json does not parse');
      expect(parsed.value.limits.onBudget).toBe('evaluate');
      const spent = parsed.value.scenarios.find((scenario) => scenario.name.startsWith('the budget spent between two actions')) as GraphFile['scenarios'][number];
      const exported = await streamExported(applyScenario(parsed.value, spent), 1);
      expect(exported.path).toEqual(['decide', 'execute', 'evaluate', 'final']);
      expect(exported.state.evaluation).toMatchObject({ evidence_sufficient: true, records: 2 });
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('names each llm key in .env.example, never a value', async () => {
    const graph = TEMPLATES.find((template) => template.id === 'securityclaw')?.graph() as GraphFile;
    graph.skills.think = { type: 'llm', access: 'read', baseUrl: 'https://llm.example.com/v1', model: 'm', apiKeyName: 'OPENAI_API_KEY' } as never;
    const other = await mkdtemp(join(tmpdir(), 'loopscope-export-'));
    try {
      process.env.OPENAI_API_KEY = 'sk-never-exported';
      await exportLangGraph(graph, other);
      const example = await readFile(join(other, '.env.example'), 'utf8');
      expect(example).toContain('OPENAI_API_KEY=\n');
      expect(example).toContain('# sent to https://llm.example.com\n');
      // The allowance the key needs, commented out: the person allows it by uncommenting.
      expect(example).toContain("\n# LOOPSCOPE_KEYS='OPENAI_API_KEY@https://llm.example.com'\n");
      for (const name of ['.env', '.env.example', 'src/graph.json', 'src/graph.ts', 'package.json']) expect(await readFile(join(other, name), 'utf8')).not.toContain('sk-never');
    } finally {
      delete process.env.OPENAI_API_KEY;
      await rm(other, { recursive: true, force: true });
    }
  });

  it('serve keeps a graph\'s key variables from the server unless --key allows them', () => {
    const graph = TEMPLATES.find((template) => template.id === 'securityclaw')?.graph() as GraphFile;
    graph.skills.think = { type: 'llm', access: 'read', baseUrl: 'https://llm.example.com/v1', model: 'm', apiKeyName: 'OPENAI_API_KEY' } as never;
    const env = { PATH: '/bin', OPENAI_API_KEY: 'sk-x' };
    expect(serverEnvironment([graph], { ...env, LOOPSCOPE_KEYS: 'OPENAI_API_KEY' })).toEqual({ PATH: '/bin', LOOPSCOPE_KEYS: '', LOOPSCOPE_GRANT: 'read-only', LOOPSCOPE_HOSTS: '', LANGGRAPH_CLI_NO_ANALYTICS: '1' });
    expect(serverEnvironment([graph], env, new Map([['OPENAI_API_KEY', new Set(['https://llm.example.com'])]]))).toMatchObject({ OPENAI_API_KEY: 'sk-x', LOOPSCOPE_KEYS: 'OPENAI_API_KEY@https://llm.example.com' });
  });

  it('serve hands the server its --grant and --host, whatever the shell held: the graph file grants nothing', () => {
    const graph = TEMPLATES.find((template) => template.id === 'securityclaw')?.graph() as GraphFile;
    const shell = { PATH: '/bin', LOOPSCOPE_GRANT: 'full', LOOPSCOPE_HOSTS: 'https://attacker.example' };
    expect(serverEnvironment([graph], shell)).toMatchObject({ LOOPSCOPE_GRANT: 'read-only', LOOPSCOPE_HOSTS: '' });
    expect(serverEnvironment([graph], shell, new Map(), { granted: 'workspace', hosts: ['https://api.example', 'http://127.0.0.1:8080'] }))
      .toMatchObject({ LOOPSCOPE_GRANT: 'workspace', LOOPSCOPE_HOSTS: 'https://api.example,http://127.0.0.1:8080' });
  });

  describe('the exported graph sends a key only where LOOPSCOPE_KEYS lets it go', () => {
    const graphNaming = (apiKeyName: string): GraphFile => ({
      format: 'loopscope/graph', version: 1, name: 'keys', entry: 'ask', limits: { maxRounds: 5, maxSteps: 10 }, permissions: { mode: 'read-only' }, state: {}, scenarios: [],
      skills: { think: { type: 'llm', access: 'read', baseUrl: 'https://llm.example.com/v1', model: 'm', apiKeyName, timeoutMs: 1000 } },
      nodes: [{ id: 'ask', kind: 'act', position: { x: 0, y: 0 }, config: { skill: 'think' } }, { id: 'end', kind: 'stop', position: { x: 0, y: 0 }, config: {} }],
      edges: [{ id: 'e', source: 'ask', target: 'end' }],
    }) as unknown as GraphFile;
    /** The Authorization headers the run sent, and the error its attempt ended with. */
    const runWith = async (graph: GraphFile, env: Record<string, string>) => {
      const sent: (string | null)[] = [];
      vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
        sent.push(new Headers(init.headers).get('authorization'));
        return new Response(JSON.stringify({ choices: [{ message: { content: 'hi' } }] }));
      });
      try {
        const { state } = await streamExported(graph, 1, env);
        return { sent, error: (state.results as { error?: string }[] | undefined)?.[0]?.error };
      } finally {
        vi.unstubAllGlobals();
      }
    };

    it('a variable of the server\'s environment is not sent because the file names it', async () => {
      expect(await runWith(graphNaming('AWS_SECRET_ACCESS_KEY'), { AWS_SECRET_ACCESS_KEY: 'aws-secret' })).toEqual({
        sent: [], error: 'the environment variable AWS_SECRET_ACCESS_KEY is sent to https://llm.example.com only with LOOPSCOPE_KEYS=AWS_SECRET_ACCESS_KEY@https://llm.example.com in the project\'s .env',
      });
      expect(await runWith(graphNaming('AWS_SECRET_ACCESS_KEY'), { AWS_SECRET_ACCESS_KEY: 'aws-secret', LOOPSCOPE_KEYS: 'AWS_SECRET_ACCESS_KEY@https://other.example' })).toMatchObject({ sent: [] });
      expect(await runWith(graphNaming('OPENAI_API_KEY'), { OPENAI_API_KEY: 'sk-1', LOOPSCOPE_KEYS: 'OPENAI_API_KEY@https://llm.example.com' })).toEqual({ sent: ['Bearer sk-1'], error: undefined });
    });

    it('a name every object has is never read as a variable', async () => {
      const env = Object.create({ toString: () => 'inherited' }) as Record<string, string>;
      env.LOOPSCOPE_KEYS = 'toString@https://llm.example.com';
      expect(await runWith(graphNaming('toString'), env)).toEqual({ sent: [], error: 'LOOPSCOPE_KEYS allows toString but the environment variable toString is not set' });
    });
  });

  describe('the exported graph does what LOOPSCOPE_GRANT and LOOPSCOPE_HOSTS allow, not what graph.json asks', () => {
    const writer = (): GraphFile => ({
      format: 'loopscope/graph', version: 1, name: 'writer', entry: 'post', limits: { maxRounds: 5, maxSteps: 10 }, permissions: { mode: 'workspace' }, state: {}, scenarios: [],
      skills: { save: { type: 'http', method: 'POST', access: 'write', url: 'https://api.example.com/records', body: '{}', timeoutMs: 1000 } },
      nodes: [{ id: 'post', kind: 'act', position: { x: 0, y: 0 }, config: { skill: 'save', retry: { maxAttempts: 1 } } }, { id: 'end', kind: 'stop', position: { x: 0, y: 0 }, config: {} }],
      edges: [{ id: 'e', source: 'post', target: 'end' }],
    }) as unknown as GraphFile;
    const runWith = async (env: Record<string, string>) => {
      const sent: string[] = [];
      vi.stubGlobal('fetch', async (url: string) => {
        sent.push(url);
        return new Response('[{"id": 1}]');
      });
      try {
        const { state } = await streamExported(writer(), 1, env);
        return { sent, error: (state.results as { error?: string }[] | undefined)?.[0]?.error };
      } finally {
        vi.unstubAllGlobals();
      }
    };

    it('without the grant nothing is sent; without the host neither; with both it is', async () => {
      const ungranted = await runWith({});
      expect(ungranted.sent).toEqual([]);
      expect(ungranted.error).toContain('the person granted read-only, which does not allow write access for real calls');
      expect(ungranted.error).toContain('LOOPSCOPE_GRANT=workspace in a served project\'s .env');
      expect(await runWith({ LOOPSCOPE_GRANT: 'workspace' })).toEqual({
        sent: [], error: 'https://api.example.com was not allowed for this run: requests go only to the hosts allowed before it started (LOOPSCOPE_HOSTS=https://api.example.com in the project\'s .env, or loopscope serve --host https://api.example.com, allows it)',
      });
      expect(await runWith({ LOOPSCOPE_GRANT: 'workspace', LOOPSCOPE_HOSTS: 'https://api.example.com' })).toEqual({ sent: ['https://api.example.com/records'], error: undefined });
      expect(() => exportedGraph(writer(), { LOOPSCOPE_GRANT: 'everything' })).toThrow('LOOPSCOPE_GRANT in the project\'s .env needs one of read-only, workspace, full, got "everything"');
      expect(() => exportedGraph(writer(), { LOOPSCOPE_HOSTS: 'api.example.com' })).toThrow('LOOPSCOPE_HOSTS in the project\'s .env needs origins such as https://api.example.com, got "api.example.com"');
    });

    it('.env.example writes what the graph asks commented out, for the person to grant', async () => {
      const other = await mkdtemp(join(tmpdir(), 'loopscope-export-'));
      try {
        await exportLangGraph(writer(), other);
        const example = await readFile(join(other, '.env.example'), 'utf8');
        expect(example).toContain("\n# LOOPSCOPE_GRANT='workspace'\n");
        expect(example).toContain("\n# LOOPSCOPE_HOSTS='https://api.example.com'\n");
        expect(await readFile(join(other, 'README.md'), 'utf8')).toContain('grant what it asks in LOOPSCOPE_GRANT and LOOPSCOPE_HOSTS');
      } finally {
        await rm(other, { recursive: true, force: true });
      }
    });
  });

  it('a graph with nothing to start from is refused with exit 2; a bad option or a missing DIR says so', async () => {
    const out: string[] = [];
    const cli = (...argv: string[]) => main(argv, { out: (line) => out.push(line), err: (line) => out.push(line) });
    expect(await cli('export', join(root, 'src/graph/templates/blank.json'), '--langgraph', join(dir, 'blank'))).toBe(2);
    expect(out.join('\n')).toContain('cannot be exported: the graph\'s entry');
    expect(await cli('export', join(root, 'src/graph/templates/blank.json'))).toBe(2);
    expect(out.at(-1)).toBe('export needs --langgraph DIR');
    expect(graphIdOf({ name: ' Über  Graph! ' } as GraphFile)).toBe('ber-graph');
    expect(await cli('serve')).toBe(2);
    expect(out.at(-1)).toBe('serve takes at least one FILE');
    expect(await cli('serve', 'x.json', '--port', 'http')).toBe(2);
    expect(out.at(-1)).toBe('--port needs a port number (1-65535)');
    expect(await cli('serve', join(root, 'src/graph/templates/blank.json'))).toBe(2);
    expect(out.at(-1)).toContain('cannot be served: the graph\'s entry');
  });
});

describe('export --langgraph DIR writes nothing outside DIR (issue 51, #2)', () => {
  const graphFile = join(root, 'src/graph/templates/securityclaw.json');
  let victim = '';
  let project = '';
  beforeEach(async () => {
    victim = await mkdtemp(join(tmpdir(), 'loopscope-victim-'));
    await writeFile(join(victim, 'bashrc'), 'alias ls="ls --color"\n');
    await writeFile(join(victim, 'README.md'), '# mine\n');
    project = join(victim, 'project');
    await mkdir(project);
  });
  afterEach(() => rm(victim, { recursive: true, force: true }));

  const exported = async () => {
    const out: string[] = [];
    const code = await main(['export', graphFile, '--langgraph', project], { out: (line) => out.push(line), err: (line) => out.push(line) });
    return { code, said: out.at(-1) };
  };
  const victimFiles = async () => Object.fromEntries(await Promise.all(['bashrc', 'README.md'].map(async (name) => [name, await readFile(join(victim, name), 'utf8')])));

  it.each([
    ['package.json', '../bashrc', 'package.json is a link, not a regular file: nothing is written or removed through it'],
    ['README.md', '../README.md', 'README.md is a link, not a regular file: nothing is written or removed through it'],
    ['src', '..', 'src is a link, not a folder: nothing is written or removed through it'],
  ])('a link named %s is refused with exit 2, and what it leads to is left as it was', async (name, target, said) => {
    const before = await victimFiles();
    await symlink(target, join(project, name));
    expect(await exported()).toEqual({ code: 2, said });
    expect(await victimFiles()).toEqual(before);
    expect(await readdir(victim)).toEqual(['README.md', 'bashrc', 'project']);
  });

  it('a named pipe in the place of a file is refused at once, not waited on', async () => {
    const pipe = join(project, 'README.md');
    execFileSync('mkfifo', [pipe]);
    try {
      expect(await exported()).toEqual({ code: 2, said: 'README.md is a named pipe, not a regular file: nothing is written or removed through it' });
    } finally {
      // A write waiting on the pipe (an old export's) goes on, so nothing is left blocked.
      await open(pipe, constants.O_RDONLY | constants.O_NONBLOCK).then((handle) => handle.close(), () => undefined);
    }
  }, 20_000);

  it('a .env that is a link is left as it is, and nothing is made where it leads', async () => {
    await symlink('../env', join(project, '.env'));
    expect((await exported()).code).toBe(0);
    expect(await readlink(join(project, '.env'))).toBe('../env');
    expect(await readdir(victim)).toEqual(['README.md', 'bashrc', 'project']);
    expect(await readFile(join(project, 'package.json'), 'utf8')).toContain('"name": "securityclaw-triage"');
  });
});

it('a host validate refuses, export and serve refuse the same way, with the path: none is written or crashes (issue 51, #9, #10)', async () => {
  for (const name of ['base-url-comma-host.json', 'base-url-quotes-host.json']) {
    const file = join(root, 'corpus', name);
    for (const argv of [['validate', file], ['export', file, '--langgraph', join(dir, name)], ['serve', file]]) {
      const out: string[] = [];
      expect(await main(argv, { out: (line) => out.push(line), err: (line) => out.push(line) }), argv.join(' ')).toBe(2);
      expect(out.join('\n')).toContain('skills.ask.baseUrl: expected an http(s) URL such as http://localhost:11434/v1, without spaces or control characters, whose host is a name');
    }
  }
});
