import { spawn } from 'node:child_process';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serializeGraph, type GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import type { CaseReport, FileReport } from './reporters.ts';
import { changesSince } from './testWatch.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

const passing = (name: string): CaseReport => ({ name, failures: [], stopReason: 'completed', steps: 3, divergence: null, cause: null, durationMs: 1 });
const failing = (name: string, cause: string): CaseReport => ({ ...passing(name), failures: [{ message: 'expected', mismatch: 'm', lead: cause } as CaseReport['failures'][number]], divergence: 2, cause });
const file = (...cases: CaseReport[]): FileReport => ({ file: 'g.json', graph: 'G', cases });

describe('changesSince', () => {
  it('names each scenario that now fails with where it parts, that now passes, that was added or removed; nothing when none changed', () => {
    const before = file(passing('a'), failing('b', 'parts at step 2: x'), passing('c'), failing('d', 'parts at step 1: y'));
    expect(changesSince(before, before)).toEqual([]);
    const after = file(failing('a', 'parts at step 4: Verify took e6 (exhausted)'), passing('b'), failing('d', 'parts at step 3: z'), passing('e'));
    expect(changesSince(before, after)).toEqual([
      '  ✗ ‘a’ now fails — parts at step 4: Verify took e6 (exhausted)',
      '  ✓ ‘b’ now passes',
      '  ✗ ‘d’ still fails, now — parts at step 3: z',
      '  + ‘e’ passes',
      '  − ‘c’ removed',
    ]);
  });

  it('says a file that is no graph any more, once, and every scenario once it is one again', () => {
    const broken: FileReport = { file: 'g.json', problem: { kind: 'unreadable', message: 'g.json is not a valid Loopscope graph:\n  not JSON' }, cases: [] };
    expect(changesSince(file(passing('a')), broken)).toEqual(['g.json is not a valid Loopscope graph:', '  not JSON']);
    expect(changesSince(broken, broken)).toEqual([]);
    expect(changesSince(broken, file(passing('a')))).toEqual(['  + ‘a’ passes']);
  });
});

/** `loopscope test --watch …` from the sources, its output gathered; `waitFor` resolves once the output so far holds `text` after `from`. */
const watching = (args: string[]) => {
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', "import('./src/cli/main.ts').then(async (m) => { process.exitCode = await m.main(process.argv.slice(1)); })", '--', 'test', ...args, '--watch'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    child,
    exited,
    output: () => out,
    /** The output from now on. */
    mark: () => out.length,
    waitFor: (text: string, from = 0) => vi.waitFor(() => expect(out.slice(from)).toContain(text), { timeout: 45_000, interval: 100 }),
  };
};

const engineer = () => findTemplate('graph-engineer')!.graph();
/** Graph Engineer with VERIFY's "sufficient" edge led to Wrap up instead of Report: most scenarios now part at VERIFY. */
const rerouted = (graph: GraphFile): GraphFile => ({ ...graph, edges: graph.edges.map((edge) => (edge.id === 'g4' ? { ...edge, target: 'wrap_up' } : edge)) });
/** Written as an editor that saves through a temporary file renamed over the old one. */
const saveByRename = async (path: string, graph: GraphFile) => {
  await writeFile(`${path}.swp`, serializeGraph(graph));
  await rename(`${path}.swp`, path);
};

let folders: string[] = [];
let children: ReturnType<typeof watching>[] = [];
afterEach(async () => {
  for (const { child } of children) child.kill('SIGKILL');
  children = [];
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
  folders = [];
});
const tempFolder = async () => {
  const folder = await mkdtemp(join(tmpdir(), 'loopscope-watch-'));
  folders.push(folder);
  return folder;
};

describe('loopscope test --watch', () => {
  it('runs a file again when it changes on disk, printing only what changed; Ctrl-C stops it cleanly', async () => {
    const folder = await tempFolder();
    const path = join(folder, 'engineer.json');
    await writeFile(path, serializeGraph(engineer()));
    const cli = watching([path]);
    children.push(cli);
    await cli.waitFor('15 passed, 0 failed');
    await cli.waitFor('Watching');

    let from = cli.mark();
    await saveByRename(path, rerouted(engineer()));
    await cli.waitFor('changed:', from);
    await cli.waitFor('6 passed, 9 failed', from);
    const changed = cli.output().slice(from);
    expect(changed).toContain("✗ ‘VERIFY's tool says not ok: back to REASON, then ok: the report’ now fails — parts at step 7: Verify took g4 (sufficient)");
    // Only what changed: none of the scenarios that still pass is named.
    expect(changed).not.toContain('a COLLECT error takes the error path');

    from = cli.mark();
    await writeFile(path, serializeGraph(rerouted(engineer())));
    await cli.waitFor('no scenario changed (6 passed, 9 failed)', from);

    from = cli.mark();
    await saveByRename(path, engineer());
    await cli.waitFor("✓ ‘VERIFY's tool says not ok: back to REASON, then ok: the report’ now passes", from);
    await cli.waitFor('15 passed, 0 failed', from);

    from = cli.mark();
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
    expect(cli.output().slice(from)).toBe('Stopped watching.\n');
  }, 120_000);

  it('a folder: a graph file changed, added or removed is run or said, the others are not run again', async () => {
    const folder = await tempFolder();
    await writeFile(join(folder, 'engineer.json'), serializeGraph(engineer()));
    await writeFile(join(folder, 'triage.json'), serializeGraph(findTemplate('securityclaw')!.graph()));
    const cli = watching([folder]);
    children.push(cli);
    await cli.waitFor('Watching');

    let from = cli.mark();
    await saveByRename(join(folder, 'engineer.json'), rerouted(engineer()));
    await cli.waitFor('engineer.json (Graph Engineer) changed:', from);
    await cli.waitFor('failed', from);
    expect(cli.output().slice(from)).not.toContain('triage.json');

    from = cli.mark();
    await writeFile(join(folder, 'copy.json'), serializeGraph({ ...engineer(), name: 'Copy' }));
    await cli.waitFor('copy.json (Copy) changed:', from);
    await cli.waitFor("+ ‘VERIFY's tool says not ok: back to REASON, then ok: the report’ passes", from);

    from = cli.mark();
    await rm(join(folder, 'copy.json'));
    await cli.waitFor('copy.json: removed', from);
  }, 120_000);
});
