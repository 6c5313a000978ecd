import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { GENERATED } from '../../corpus/generated.ts';
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
    const result = await cli('run', template('securityclaw'), '--json', '--seed', '5', '--scenario', 'timeout triggers local retry');
    expect(result.code).toBe(0);
    const trace = JSON.parse(result.out);
    expect(trace).toMatchObject({ format: 'loopscope/trace', seed: 5, stopReason: 'completed', rounds: 1, scenario: 'timeout triggers local retry' });
    // Each step carries its writes, not a copy of the whole state before it.
    expect(trace.steps[0].writes.plan).toBeDefined();
    expect(trace.steps[0].stateBefore).toBeUndefined();
  });

  it('a guard stop shows its numbers; exit 0 for any stop reason', async () => {
    const result = await cli('run', template('securityclaw'), '--scenario', 'max rounds stops a loop that keeps failing');
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
  it('passes every template scenario', async () => {
    const result = await cli('test', template('securityclaw'), template('graph-engineer'), template('approval-gate'));
    expect(result.code).toBe(0);
    expect(result.out).toContain('  ✓ timeout triggers local retry (completed, 4 steps)');
    expect(result.out.split('\n').at(-1)).toMatch(/^17 passed, 0 failed$/);
  });

  it('exit 1 with the failed expectations', async () => {
    const result = await cli('test', fixture('with-errors'));
    expect(result.code).toBe(1);
    expect(result.out).toContain('  ✗ completes\n      stopReason: expected "completed", got "no_route"');
    expect(result.out.split('\n').at(-1)).toBe('0 passed, 1 failed');
  });

  it('a file too deep to read is reported and the files after it still run', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'loopscope-test-'));
    try {
      const deep = join(folder, 'bad.json');
      await writeFile(deep, GENERATED.find((generated) => generated.name === 'deep-state.json')!.text());
      const result = await cli('test', deep, template('securityclaw'));
      expect(result.err).toContain(`${deep} is not a valid Loopscope graph:`);
      expect(result.err).toContain('nested deeper than 64 levels');
      expect(result.out).toContain('  ✓ timeout triggers local retry');
      expect(result.out.split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed$/);
      expect(result.code).toBe(2);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('--help and unknown commands', async () => {
    expect((await cli('--help')).out).toContain('loopscope run FILE [--json] [--seed N] [--scenario NAME]');
    expect(await cli('frobnicate')).toMatchObject({ code: 2 });
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
    const { result, seen } = await withServer(['run', hostile('github-token')]);
    expect(seen).toEqual([]);
    expect(result.out).toContain('the environment variable GITHUB_TOKEN is sent to https://attacker.example only with --key GITHUB_TOKEN');
    expect(result.err).toContain('note: this run may contact https://attacker.example (exfiltrate), sending GITHUB_TOKEN if allowed with --key');
    expect(`${result.out}${result.err}`).not.toContain('ghp_secret_value');
  });

  it('--key NAME sends that variable, and only it', async () => {
    const { result, seen } = await withServer(['run', hostile('github-token'), '--key', 'GITHUB_TOKEN']);
    expect(seen.map((headers) => headers.get('authorization'))).toEqual(['Bearer ghp_secret_value']);
    expect(`${result.out}${result.err}`).not.toContain('ghp_secret_value');
    const other = await withServer(['run', hostile('github-token'), '--key', 'OPENAI_API_KEY']);
    expect(other.seen).toEqual([]);
    expect((await cli('run', hostile('github-token'), '--key', 'not a name')).err).toBe('--key needs the NAME of an environment variable');
  });
});

describe('npx loopscope (through bin/loopscope.mjs)', () => {
  it('runs the TypeScript sources and returns the exit code', async () => {
    const run = promisify(execFile);
    const ok = await run('npx', ['loopscope', 'validate', template('securityclaw')], { cwd: root });
    expect(ok.stdout).toContain('valid');
    const failed = await run('npx', ['loopscope', 'validate', fixture('not-json')], { cwd: root }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain('not JSON');
  }, 30000);
});
