import { describe, expect, it } from 'vitest';
import type { GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { createWatcher, leftOutWhy, marksOf, runWatched, walkOf, type WatchResult } from './scenarioWatch.ts';

const engineer = () => findTemplate('graph-engineer')!.graph();
/** Act's Max attempts lowered from 2 to 1: a timeout is no longer retried in place. */
const withActAttempts = (graph: GraphFile, maxAttempts: number): GraphFile => ({
  ...graph,
  nodes: graph.nodes.map((node) => (node.id === 'run' && node.kind === 'act' ? { ...node, config: { ...node.config, retry: { ...node.config.retry, maxAttempts } } } : node)),
});
const never = async () => false;
const TIMEOUT = 'a timeout triggers a local retry that touches only the current tool call';

describe('which scenarios a run on each edit runs', () => {
  const graph: GraphFile = { ...engineer(), skills: { ...engineer().skills, fetch_page: { type: 'http', access: 'read', url: 'https://example.com', method: 'GET' } as never } };
  it('leaves out a scenario that leaves a real skill real, naming it and why', () => {
    expect(leftOutWhy(graph, graph.scenarios[0])).toBe('it leaves the http skill "fetch_page" real, and a run on each edit never calls a real skill: give it a mock script in the scenario to watch it');
  });
  it('runs one that gives the real skill a mock script', () => {
    expect(leftOutWhy(graph, { ...graph.scenarios[0], skills: { fetch_page: { script: [{ outcome: 'ok' }] } } })).toBeNull();
    expect(leftOutWhy(engineer(), engineer().scenarios[0])).toBeNull();
  });
});

describe('runWatched', () => {
  it('stops where the time budget runs out and says at which scenario', async () => {
    const graph = engineer();
    let clock = 0;
    const result = await runWatched({ version: 1, graph, budgetMs: 15 }, never, () => (clock += 10));
    expect(result?.results.map((watched) => watched.name)).toEqual(graph.scenarios.slice(0, 2).map((scenario) => scenario.name));
    expect(result?.stoppedAt).toBe(graph.scenarios[2].name);
    expect(result?.notRun).toBe(graph.scenarios.length - 2);
  });

  it('gives up when a newer edit has come', async () => {
    expect(await runWatched({ version: 1, graph: engineer(), budgetMs: 10_000 }, async () => true)).toBeNull();
  });
});

describe('createWatcher: the newest edit wins', () => {
  it('posts only the result of the newest request: an older one overtaken while it waits is never posted', async () => {
    const posted: WatchResult[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const watch = createWatcher((result) => posted.push(result), () => held);
    const graph = engineer();
    const old = watch({ version: 1, graph: withActAttempts(graph, 1), budgetMs: 10_000, delayMs: 1000 });
    const newer = watch({ version: 2, graph, budgetMs: 10_000 });
    release();
    await Promise.all([old, newer]);
    expect(posted.map((result) => result.version)).toEqual([2]);
    expect(posted[0].results.every((watched) => watched.status === 'passed')).toBe(true);
  });

  it('drops a request older than one already taken', async () => {
    const posted: WatchResult[] = [];
    const watch = createWatcher((result) => posted.push(result));
    await watch({ version: 3, graph: { ...engineer(), scenarios: [] }, budgetMs: 10 });
    await watch({ version: 2, graph: { ...engineer(), scenarios: [] }, budgetMs: 10 });
    expect(posted.map((result) => result.version)).toEqual([3]);
  });
});

describe('marksOf: where a scenario now parts from the run it expected', () => {
  const runOf = async (graph: GraphFile, name: string) => {
    const result = await runWatched({ version: 1, graph: { ...graph, scenarios: graph.scenarios.filter((scenario) => scenario.name === name) }, budgetMs: 10_000 }, never);
    return result!.results[0];
  };
  const label = (id: string) => engineer().nodes.find((node) => node.id === id)?.label ?? id;

  it('marks the node where it parts, the edge it now takes and the edge it expected', async () => {
    const passing = await runOf(engineer(), TIMEOUT);
    const broken = await runOf(withActAttempts(engineer(), 1), TIMEOUT);
    expect(broken.status).toBe('failed');
    expect(marksOf(TIMEOUT, broken.trace!, broken.divergence, broken.cause, { walk: walkOf(passing.trace!) }, label).filter((mark) => !mark.unreached)).toEqual([
      { scenario: TIMEOUT, kind: 'node', id: 'run', words: `‘${TIMEOUT}’ parts here: now takes g6 (empty); expected g3 (ok)` },
      { scenario: TIMEOUT, kind: 'edge', id: 'g6', words: `‘${TIMEOUT}’ now takes g6 (empty) here; expected g3 (ok)` },
      { scenario: TIMEOUT, kind: 'edge', id: 'g3', words: `‘${TIMEOUT}’ expected g3 (ok) here; now takes g6 (empty)` },
    ]);
  });

  it('marks a rerouted edge where the run now goes elsewhere, and the node it no longer reaches', async () => {
    const name = engineer().scenarios[0].name;
    const passing = await runOf(engineer(), name);
    const graph = engineer();
    const rerouted = { ...graph, edges: graph.edges.map((edge) => (edge.id === 'g4' ? { ...edge, target: 'wrap_up' } : edge)) };
    const broken = await runOf(rerouted, name);
    expect(marksOf(name, broken.trace!, broken.divergence, broken.cause, { walk: walkOf(passing.trace!) }, label)).toEqual([
      { scenario: name, kind: 'node', id: 'check', words: `‘${name}’ parts here: now goes on to Final response; expected Report` },
      { scenario: name, kind: 'edge', id: 'g4', words: `‘${name}’ takes g4 (sufficient) here and now goes on to Final response; expected Report` },
      { scenario: name, kind: 'node', id: 'report', unreached: true, words: `‘${name}’ no longer reaches Report` },
    ]);
  });

  it('marks nothing when the path is the one expected', async () => {
    const passing = await runOf(engineer(), TIMEOUT);
    expect(marksOf(TIMEOUT, passing.trace!, null, null, { walk: walkOf(passing.trace!) })).toEqual([]);
  });

  it('marks the step the check names when the path is the one expected but a step did otherwise (SecurityClaw, Execute skill’s Max attempts 3 → 2)', async () => {
    const claw = findTemplate('securityclaw')!.graph();
    const lowered: GraphFile = { ...claw, nodes: claw.nodes.map((node) => (node.id === 'execute' && node.kind === 'act' ? { ...node, config: { ...node.config, retry: { ...node.config.retry, maxAttempts: 2 } } } : node)) };
    const name = 'told apart: a parse failure exhausts its retries and reaches evaluate';
    const passing = await runOf(claw, name);
    const broken = await runOf(lowered, name);
    expect(broken.status).toBe('failed');
    expect(walkOf(broken.trace!)).toEqual(walkOf(passing.trace!));
    expect(marksOf(name, broken.trace!, broken.divergence, broken.cause, { walk: walkOf(passing.trace!) })).toEqual([
      { scenario: name, kind: 'node', id: 'execute', words: `‘${name}’ parts here: ${broken.cause}` },
    ]);
  });

  it('with no run to compare with, marks the step the check names, with its cause', async () => {
    const broken = await runOf(withActAttempts(engineer(), 1), TIMEOUT);
    const marks = marksOf(TIMEOUT, broken.trace!, broken.divergence, broken.cause, { nodes: ['gather', 'report'] });
    expect(marks[0]).toEqual({ scenario: TIMEOUT, kind: 'node', id: 'run', words: `‘${TIMEOUT}’ parts here: parts at step 3: Act took g6 (empty), the scenario took g3 (ok)` });
    expect(marks[1]).toMatchObject({ kind: 'edge', id: 'g6' });
  });
});
