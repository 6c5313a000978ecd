import { execFile, execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { constants } from 'node:fs';
import { copyFile, mkdir, mkdtemp, open, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Window } from 'happy-dom';
import { describe, expect, it, vi } from 'vitest';
import { GENERATED } from '../../corpus/generated.ts';
import type { GraphFile } from '../graph/index.ts';
import { main } from './main.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const template = (id: string) => `${root}src/graph/templates/${id}.json`;
const fixture = (name: string) => `${root}src/cli/fixtures/${name}.json`;
const hostile = (name: string) => `${root}corpus/${name}.json`;

const cli = async (...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

describe('loopscope validate', () => {
  it('exit 0 for a valid graph, warnings allowed', async () => {
    expect(await cli('validate', template('securityclaw'))).toMatchObject({ code: 0, out: `${template('securityclaw')}: valid` });
    const approval = await cli('validate', template('approval-gate'));
    expect(approval.code).toBe(0);
    expect(approval.out).toMatch(/^warning permission_conflict +draft uses "open_ticket"/);
  });

  it('exit 1 with the problems and their codes when the graph has errors', async () => {
    const result = await cli('validate', fixture('with-errors'));
    expect(result.code).toBe(1);
    expect(result.out).toContain('error   unknown_skill      think uses the skill "serach"');
    expect(result.out).toContain('(nodes[0].config.plans[0].actions[0].skill)');
    expect(result.out).toContain('unrouted_outcome');
    expect(result.out.split('\n').at(-1)).toBe(`${fixture('with-errors')}: 1 error(s), 5 warning(s)`);
  });

  it.each([
    ['not-json', 'not JSON: '],
    ['wrong-format', 'format: expected "loopscope/graph", got "something/else"'],
    ['future-version', 'version: version 9 is newer than this Loopscope supports'],
    ['refused-key', 'nodes[0].config.__proto__: the key "__proto__" is not allowed anywhere in a file'],
    ['bad-field', 'nodes[0].config.retry.maxAttempts: expected a number, got a string'],
  ])('exit 2 for %s, naming the path, with no stack trace', async (name, message) => {
    const result = await cli('validate', fixture(name));
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
    expect(result.err).not.toMatch(/\n\s+at /);
  });

  it('exit 2 for a missing file', async () => {
    expect(await cli('validate', '/no/such/file.json')).toMatchObject({ code: 2, err: '/no/such/file.json: cannot read the file (ENOENT)' });
  });
});

describe('loopscope run', () => {
  it('prints a timeline that says why each edge was taken', async () => {
    const result = await cli('run', template('securityclaw'));
    expect(result.code).toBe(0);
    const lines = result.out.split('\n');
    expect(lines[0]).toBe('SecurityClaw triage — seed 1');
    expect(lines).toContain('── round 2 ──');
    expect(result.out).toContain('      attempt 1 search_events: timeout, 0 record(s), 100 token(s) — SIEM did not answer within 5s\n          ↳ timeout is in retryOn (attempt 1 of 3): retrying in place');
    expect(result.out).toContain('      ✓ e4 → recover: evaluation.plan_exhausted eq true (was true)');
    expect(result.out).toContain('      guards: round 2/5 · steps 4/50 · tokens 200/2000');
    expect(lines.at(-2)).toBe('Stopped: completed — answer wrote the response: the run completed');
  });

  it('--json prints the trace alone; --seed and --scenario apply', async () => {
    const result = await cli('run', template('securityclaw'), '--json', '--seed', '5', '--scenario', 'execute timeout triggers local retry');
    expect(result.code).toBe(0);
    const trace = JSON.parse(result.out);
    expect(trace).toMatchObject({ format: 'loopscope/trace', seed: 5, stopReason: 'completed', rounds: 1, scenario: 'execute timeout triggers local retry' });
    // Each step carries its writes, not a copy of the whole state before it.
    expect(trace.steps[0].writes.plan).toBeDefined();
    expect(trace.steps[0].stateBefore).toBeUndefined();
  });

  it('a guard stop shows its numbers; exit 0 for any stop reason', async () => {
    const result = await cli('run', template('securityclaw'), '--scenario', 'max rounds forces stop');
    expect(result.code).toBe(0);
    expect(result.out).toContain('■ guard max_rounds: round 6 would exceed maxRounds 5');
    expect(result.out).toContain('Stopped: max_rounds');
  });

  it('exit 2 for an unknown scenario, an invalid file or a bad option', async () => {
    expect(await cli('run', template('securityclaw'), '--scenario', 'nope')).toMatchObject({ code: 2 });
    expect((await cli('run', fixture('bad-field'))).code).toBe(2);
    expect((await cli('run', template('securityclaw'), '--seed', 'x')).err).toBe('--seed needs a whole number');
  });
});

describe('loopscope test', () => {
  const xmlOf = (text: string) => {
    const document = new (new Window().DOMParser)().parseFromString(text, 'application/xml');
    expect(document.getElementsByTagName('parsererror')).toHaveLength(0);
    return document;
  };

  it('passes every template scenario', async () => {
    const result = await cli('test', template('securityclaw'), template('graph-engineer'), template('approval-gate'));
    expect(result.code).toBe(0);
    expect(result.out).toContain('  ✓ execute timeout triggers local retry (completed, 4 steps)');
    expect(result.out.split('\n').at(-1)).toMatch(/^30 passed, 0 failed$/);
  });

  it('a saved run’s scenario leads with where the run parts from the saved one and the setting that made it (issue 53, #10)', async () => {
    const { runGraph, scenarioFromRun } = await import('../runtime/index.ts');
    const { findTemplate } = await import('../graph/templates/index.ts');
    const graph = (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();
    const saved = await runGraph(graph);
    graph.scenarios = [scenarioFromRun(graph, saved).scenario];
    graph.limits.tokenBudget = 250;
    const file = join(await mkdtemp(join(tmpdir(), 'loopscope-')), 'lower-budget.json');
    await writeFile(file, JSON.stringify(graph));
    const result = await cli('test', file);
    expect(result.code).toBe(1);
    expect(result.out).toContain(`  ✗ SecurityClaw triage: completed in 2 round(s) — parts at step 4: Recover took e7 (no_path), the saved run took e6 (recovered). The Token budget is 250; the saved run used ${saved.tokensUsed} token(s)\n`);
  });

  it('exit 1 with the failed expectations and the step where the run parts from them', async () => {
    const result = await cli('test', fixture('with-errors'));
    expect(result.code).toBe(1);
    // The cause first, then expected against actual.
    expect(result.out).toContain('  ✗ completes — parts at step 2: the run stopped at run (step 2): no_route\n      stopReason: expected "completed", got "no_route"\n');
    expect(result.out.split('\n').at(-1)).toBe('0 passed, 1 failed');
  });

  it('a file with no scenario is reported and fails the run; a file that is not a graph does not stop the others', async () => {
    const result = await cli('test', fixture('no-scenarios'), fixture('not-json'), template('approval-gate'));
    expect(result.code).toBe(2);
    const lines = result.out.split('\n');
    expect(lines[0]).toBe(`${fixture('no-scenarios')} (Nothing to test): no scenario to run; add "scenarios" to the graph, or save a run as a scenario in the app`);
    expect(lines[1]).toMatch(/not-json\.json is not a valid Loopscope graph:$/);
    expect(result.out).toContain('  ✓ denied, approved once, then it runs');
    expect(lines.at(-1)).toBe('2 passed, 0 failed');
    expect((await cli('test', fixture('no-scenarios'))).code).toBe(1);
  });

  it('--reporter junit: one testcase per scenario, a failure with its message, a file with none as an error', async () => {
    const result = await cli('test', template('approval-gate'), fixture('with-errors'), fixture('no-scenarios'), '--reporter', 'junit');
    expect(result.code).toBe(1);
    expect(result.err).toContain('no scenario to run');
    const document = xmlOf(result.out);
    const root = document.documentElement;
    expect(root.tagName).toBe('testsuites');
    expect([root.getAttribute('tests'), root.getAttribute('failures'), root.getAttribute('errors')]).toEqual(['4', '1', '1']);
    const cases = [...document.getElementsByTagName('testcase')];
    expect(cases.map((test) => test.getAttribute('name'))).toEqual(['denied, approved once, then it runs', 'a failing write after approval stops as execution_failed', 'completes', 'has scenarios']);
    expect(cases[0].children).toHaveLength(0);
    const failure = cases[2].getElementsByTagName('failure')[0];
    expect(failure.getAttribute('message')).toBe('parts at step 2: the run stopped at run (step 2): no_route; 1 expectation(s) failed, the first: stopReason: expected "completed", got "no_route"');
    expect(failure.getAttribute('type')).toBe('stopReason');
    expect(cases[3].getElementsByTagName('error')[0].getAttribute('type')).toBe('no_scenarios');
  });

  it('--reporter junit keeps names with markup, quotes and line breaks well-formed', async () => {
    const result = await cli('test', fixture('odd-names'), '--reporter=junit');
    const test = xmlOf(result.out).getElementsByTagName('testcase')[0];
    expect(test.getAttribute('name')).toBe('a <b> & "c"\nd');
    expect(test.getAttribute('classname')).toBe("it's <odd>");
  });

  it('--reporter tap: a plan, one point per scenario, the failures in a YAML block', async () => {
    const result = await cli('test', fixture('with-errors'), fixture('no-scenarios'), '--reporter', 'tap');
    expect(result.code).toBe(1);
    expect(result.out.split('\n')).toEqual([
      'TAP version 13',
      '1..2',
      'not ok 1 - Broken routing: completes',
      '  ---',
      `  file: ${JSON.stringify(fixture('with-errors'))}`,
      '  step: 2',
      '  cause: "parts at step 2: the run stopped at run (step 2): no_route"',
      '  failures:',
      '    - "stopReason: expected \\"completed\\", got \\"no_route\\" (parts at step 2: the run stopped at run (step 2): no_route)"',
      '  ...',
      `not ok 2 - ${fixture('no-scenarios')} (Nothing to test): no scenario to run; add "scenarios" to the graph, or save a run as a scenario in the app`,
      '# 0 passed, 1 failed',
    ]);
  });

  it('a scenario that cannot run fails alone, and the others still run', async () => {
    const result = await cli('test', fixture('bad-override'));
    expect(result.code).toBe(1);
    expect(result.out).toContain('  ✗ bad override\n      scenario "bad override": skills.search.script[0].outcome: expected "ok" or "empty"');
    expect(result.out).toContain('  ✓ fine');
    expect(result.out.split('\n').at(-1)).toBe('1 passed, 1 failed');
  });

  it('refuses an unknown reporter', async () => {
    expect(await cli('test', template('securityclaw'), '--reporter', 'xml')).toMatchObject({ code: 2, err: '--reporter needs one of text, junit, tap, got "xml"' });
  });

  it('each command takes only its own options', async () => {
    expect(await cli('run', template('securityclaw'), '--reporter', 'junit')).toMatchObject({ code: 2, err: 'run does not take --reporter' });
    expect(await cli('test', template('securityclaw'), '--port', '2024')).toMatchObject({ code: 2, err: 'test does not take --port' });
    expect(await cli('export', template('securityclaw'), '--langgraph', 'out', '--json')).toMatchObject({ code: 2, err: 'export does not take --json' });
    expect(await cli('serve', template('securityclaw'), '--frobnicate')).toMatchObject({ code: 2, err: 'unknown option --frobnicate' });
  });

  it('reads options as parseArgs splits them, and names what a misused one needs', async () => {
    expect(await cli('run', template('securityclaw'), '--seed=7', '--json')).toMatchObject({ code: 0 });
    expect(JSON.parse((await cli('run', template('securityclaw'), '--seed=7', '--json')).out).seed).toBe(7);
    expect(await cli('run', template('securityclaw'), '--json=yes')).toMatchObject({ code: 2, err: '--json takes no value' });
    expect(await cli('export', template('securityclaw'), '--langgraph', '--mcp', 'x.json')).toMatchObject({ code: 2, err: '--langgraph needs a folder (DIR)' });
    expect(await cli('run', template('securityclaw'), '-j')).toMatchObject({ code: 2, err: 'unknown option -j' });
    expect(await cli('run', '--', '--not-an-option.json')).toMatchObject({ code: 2 });
    expect((await cli('run', '--', '--not-an-option.json')).err).toContain('--not-an-option.json');
  });

  it('a file too deep to read is reported and the files after it still run', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'loopscope-test-'));
    try {
      const deep = join(folder, 'bad.json');
      await writeFile(deep, GENERATED.find((generated) => generated.name === 'deep-state.json')!.text());
      const result = await cli('test', deep, template('securityclaw'));
      // The text report names the file in its place, among the others.
      expect(result.out).toContain(`${deep} is not a valid Loopscope graph:`);
      expect(result.out).toContain('nested deeper than 64 levels');
      expect(result.out).toContain('  ✓ execute timeout triggers local retry');
      expect(result.out.split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed$/);
      expect(result.code).toBe(2);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('--help and unknown commands', async () => {
    expect((await cli('--help')).out).toContain('loopscope run FILE [--json] [--seed N] [--scenario NAME] [--grant MODE] [--host ORIGIN]');
    expect((await cli('--help')).out).toContain('loopscope test FILE|FOLDER… [--reporter text|junit|tap]');
    expect((await cli('--help')).out).toContain('loopscope serve FILE… [--port N] [--dir DIR] [--grant MODE] [--host ORIGIN] [--key NAME]');
    expect(await cli('frobnicate')).toMatchObject({ code: 2 });
  });
});

describe('names from a file cannot forge a line of the output', () => {
  // Each name of forged-lines.json holds a newline, a carriage return, U+2028 and an ANSI escape
  // around `1 passed, 0 failed`; its two scenarios fail.
  const forged = (text: string) => {
    // No control character but the newlines between lines, no line separator.
    expect(text.replaceAll('\n', '')).not.toMatch(/[\p{Cc}\u2028]/u);
    // No line of its own says what the file wrote.
    expect(text.split('\n').filter((line) => /^\s*1 passed/.test(line))).toEqual([]);
  };

  it('test: the graph and scenario names stay on their lines, the summary is the real one', async () => {
    const result = await cli('test', fixture('forged-lines'));
    forged(result.out);
    const lines = result.out.split('\n');
    expect(lines[0]).toBe(`${fixture('forged-lines')} (forged\\u000a1 passed, 0 failed\\u000a): 2 scenario(s)`);
    expect(lines[1]).toMatch(/^ {2}✗ fails\\u000a1 passed, 0 failed\\u000d\\u2028\\u001b\[1A — parts at step 3/);
    // A scenario that cannot run: its message quotes the name visibly too.
    expect(lines).toContain('      scenario "bad override\\u000a1 passed, 0 failed": skills.look.script[0].outcome: expected "ok" or "empty" or "timeout" or "parse_error" or "permission_denied" or "error"');
    expect(lines.at(-1)).toBe('0 passed, 2 failed');
    expect(lines).toHaveLength(6);
    forged((await cli('test', fixture('forged-lines'), '--reporter', 'tap')).out);
  });

  it('run: the timeline and a refused scenario name', async () => {
    const run = await cli('run', fixture('forged-lines'));
    forged(run.out);
    expect(run.out.split('\n')[0]).toBe('forged\\u000a1 passed, 0 failed\\u000a — seed 1');
    const unknown = await cli('run', fixture('forged-lines'), '--scenario', 'none');
    forged(unknown.err);
    expect(unknown.err.split('\n')).toHaveLength(1);
  });

  it('a file that is not a graph: a problem quoting a key is one line', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'loopscope-forged-'));
    try {
      const file = join(folder, 'bad.json');
      await writeFile(file, JSON.stringify({ format: 'loopscope/graph', version: 1, name: 'x', entry: 'a', nodes: [{ id: 'a', kind: 'stop' }], 'odd\n1 passed, 0 failed\u001b[2K': 1 }));
      const result = await cli('test', file);
      forged(result.out);
      expect(result.out.split('\n')).toEqual([`${file} is not a valid Loopscope graph:`, '  ["odd\\n1 passed, 0 failed\\u001b[2K"]: unknown key "odd\\u000a1 passed, 0 failed\\u001b[2K" is not allowed here', '0 passed, 0 failed']);
      forged((await cli('validate', file)).err);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('junit keeps the names whole and well-formed: line breaks as references, no control character', async () => {
    const result = await cli('test', fixture('forged-lines'), '--reporter', 'junit');
    expect(result.out.replaceAll('\n', '')).not.toMatch(/\p{Cc}/u);
    const document = new (new Window().DOMParser)().parseFromString(result.out, 'application/xml');
    expect(document.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(document.getElementsByTagName('testsuite')[0].getAttribute('name')).toBe('forged\n1 passed, 0 failed\n');
  });
});

describe('keys on the command line', () => {
  const withServer = async (argv: string[]) => {
    const seen: Headers[] = [];
    vi.stubEnv('GITHUB_TOKEN', 'ghp_secret_value');
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      seen.push(new Headers(init.headers));
      return new Response(JSON.stringify({ choices: [{ message: { content: 'hi' } }], usage: { total_tokens: 1 } }));
    });
    try {
      return { result: await cli(...argv), seen };
    } finally {
      vi.unstubAllGlobals();
      vi.unstubAllEnvs();
    }
  };

  it('a file naming an environment variable gets nothing sent without --key, and the refusal names the flag', async () => {
    // The host allowed, the key not: what refuses is the key rule.
    const { result, seen } = await withServer(['run', hostile('github-token'), '--host', 'https://attacker.example']);
    expect(seen).toEqual([]);
    expect(result.out).toContain('the environment variable GITHUB_TOKEN is sent to https://attacker.example only with --key GITHUB_TOKEN@https://attacker.example');
    expect(result.err).toContain('note: this run may contact https://attacker.example (exfiltrate), sending GITHUB_TOKEN if allowed with --key');
    expect(`${result.out}${result.err}`).not.toContain('ghp_secret_value');
  });

  it('--key NAME sends that variable, and only it', async () => {
    const { result, seen } = await withServer(['run', hostile('github-token'), '--key', 'GITHUB_TOKEN', '--host', 'https://attacker.example']);
    expect(seen.map((headers) => headers.get('authorization'))).toEqual(['Bearer ghp_secret_value']);
    expect(`${result.out}${result.err}`).not.toContain('ghp_secret_value');
    const other = await withServer(['run', hostile('github-token'), '--key', 'OPENAI_API_KEY', '--host', 'https://attacker.example']);
    expect(other.seen).toEqual([]);
    expect((await cli('run', hostile('github-token'), '--key', 'not a name')).err).toBe('--key needs the NAME of an environment variable, optionally NAME@ORIGIN, got "not a name"');
  });

  it('--key NAME@ORIGIN sends the variable to that origin only: a file pointing elsewhere gets nothing', async () => {
    const elsewhere = await withServer(['run', hostile('github-token'), '--key', 'GITHUB_TOKEN@https://api.github.com', '--host', 'https://attacker.example']);
    expect(elsewhere.seen).toEqual([]);
    expect(elsewhere.result.out).toContain('--key lets GITHUB_TOKEN go to https://api.github.com only, not to https://attacker.example');
    const bound = await withServer(['run', hostile('github-token'), '--key', 'GITHUB_TOKEN@https://attacker.example']);
    expect(bound.seen.map((headers) => headers.get('authorization'))).toEqual(['Bearer ghp_secret_value']);
    expect((await cli('run', hostile('github-token'), '--key', 'GITHUB_TOKEN@attacker.example/path')).err).toBe('--key GITHUB_TOKEN@… needs an origin such as https://api.openai.com, got "attacker.example/path"');
  });

  it('serve refuses a key bound to an origin that a served skill does not call, before anything starts', async () => {
    const result = await cli('serve', hostile('github-token'), '--key', 'GITHUB_TOKEN@https://api.github.com', '--host', 'https://attacker.example');
    expect(result.code).toBe(2);
    expect(result.err).toContain('cannot be served with these keys: skill exfiltrate sends GITHUB_TOKEN to https://attacker.example, and --key allows https://api.github.com only');
  });
});

describe('loopscope test FOLDER', () => {
  it('runs the scenarios of the folder\'s graph files, found as loopscope open lists them', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'loopscope-test-folder-'));
    try {
      await mkdir(join(folder, 'graphs', 'more'), { recursive: true });
      await mkdir(join(folder, 'node_modules', 'pkg'), { recursive: true });
      await copyFile(template('securityclaw'), join(folder, 'graphs', 'triage.json'));
      await copyFile(template('approval-gate'), join(folder, 'graphs', 'more', 'approval.json'));
      await copyFile(template('graph-engineer'), join(folder, 'node_modules', 'pkg', 'left-out.json'));
      await writeFile(join(folder, 'graphs', 'settings.json'), '{"not": "a graph"}');
      const result = await cli('test', join(folder, 'graphs'), '--reporter', 'junit');
      expect(result.code).toBe(0);
      expect([...result.out.matchAll(/<testsuite name="([^"]+)"/g)].map((match) => match[1])).toEqual(['Approval gate', 'SecurityClaw triage']);
      await mkdir(join(folder, 'empty'));
      expect(await cli('test', join(folder, 'empty'))).toMatchObject({ code: 2, err: `${join(folder, 'empty')}: no graph file in the folder (a .json file whose "format" is "loopscope/graph")` });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('a graph file named on the command line that is not a regular file', () => {
  it('a link to a named pipe or to /dev/zero is refused at once (exit 2), not read for ever, by every command', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'loopscope-pipe-'));
    const pipe = join(dir, 'pipe');
    execFileSync('mkfifo', [pipe]);
    await symlink('pipe', join(dir, 'a.json'));
    await symlink('/dev/zero', join(dir, 'zero.json'));
    try {
      for (const command of ['validate', 'run', 'test', 'export']) {
        const extra = command === 'export' ? ['--langgraph', join(dir, 'out')] : [];
        const piped = await cli(command, join(dir, 'a.json'), ...extra);
        expect(piped.code).toBe(2);
        // `test` reports a file it cannot read among its results, the others on stderr.
        expect(`${piped.out}${piped.err}`).toContain(`${join(dir, 'a.json')} is a named pipe, not a regular file: it is not read`);
        const zero = await cli(command, join(dir, 'zero.json'), ...extra);
        expect(zero.code).toBe(2);
        expect(`${zero.out}${zero.err}`).toContain(`${join(dir, 'zero.json')} is a device, not a regular file: it is not read`);
      }
    } finally {
      await open(pipe, constants.O_WRONLY | constants.O_NONBLOCK).then((handle) => handle.close(), () => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  }, 20_000);

  it('a file larger than a graph may be is refused unread', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'loopscope-big-'));
    try {
      const big = join(dir, 'big.json');
      await writeFile(big, '');
      await truncate(big, 40_000_000);
      expect(await cli('validate', big)).toMatchObject({ code: 2, err: `${big} is too large: 40.0 MB, at most 32.0 MB is read` });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('loopscope open', () => {
  it('exit 2 with a clear message when the folder is not there or a flag is wrong', async () => {
    expect(await cli('open', join(tmpdir(), 'loopscope-nowhere', 'folder'), '--no-browser')).toEqual({ code: 2, out: '', err: `${join(tmpdir(), 'loopscope-nowhere', 'folder')}: no such folder or file` });
    expect((await cli('open', '--port', 'x')).err).toBe('--port needs a port number (0-65535)');
    expect((await cli('open', 'a', 'b')).err).toBe('open takes one PATH (a folder or a graph file)');
    expect((await cli('open', '--json')).err).toBe('open does not take --json');
  });
});

describe('npx loopscope (through bin/loopscope.mjs)', () => {
  it('runs the built command line and returns the exit code', async () => {
    const run = promisify(execFile);
    const ok = await run('npx', ['loopscope', 'validate', template('securityclaw')], { cwd: root });
    expect(ok.stdout).toContain('valid');
    const failed = await run('npx', ['loopscope', 'validate', fixture('not-json')], { cwd: root }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain('not JSON');
  }, 30000);

  it('stops quietly when the reader closes the pipe early (`loopscope run … | head -n 1`)', async () => {
    // A thousand rounds print far more than a pipe holds, so the CLI is still writing when head leaves.
    const child = spawn('node', ['bin/loopscope.mjs', 'run', fixture('long-loop')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const firstLine = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\n')[0])));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(firstLine).toBe('Long — seed 1');
    expect(err).not.toContain('EPIPE');
    expect(code).toBe(0);
  }, 60000);
});
