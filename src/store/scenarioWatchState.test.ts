import { describe, expect, it } from 'vitest';
import type { GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { runWatched } from '../runtime/scenarioWatch.ts';
import { editWords, emptyMemory, isCurrent, takeResult } from './scenarioWatchState.ts';

const engineer = findTemplate('graph-engineer')!.graph();
const withActAttempts = (graph: GraphFile, maxAttempts: number): GraphFile => ({
  ...graph,
  nodes: graph.nodes.map((node) => (node.id === 'run' && node.kind === 'act' ? { ...node, config: { ...node.config, retry: { ...node.config.retry, maxAttempts } } } : node)),
});
const run = async (graph: GraphFile, version: number) => (await runWatched({ version, graph, budgetMs: 10_000 }, async () => false))!;
const TIMEOUT = 'a timeout triggers a local retry that touches only the current tool call';

describe('an edit in words', () => {
  it('names the setting and its values before and after', () => {
    expect(editWords(engineer, withActAttempts(engineer, 1))).toBe("Act's Max attempts 2 → 1");
  });
  it('says when only the scenarios changed', () => {
    expect(editWords(engineer, { ...engineer, scenarios: engineer.scenarios.slice(1) })).toBe('an edit of the scenarios');
  });
});

describe('a result is shown only for the newest edit', () => {
  it('takes the newest version, never an older one', () => {
    expect(isCurrent({ version: 4 }, 4)).toBe(true);
    expect(isCurrent({ version: 3 }, 4)).toBe(false);
  });
});

describe('takeResult: from the worker’s results to the count, the marks, the edit that broke each, and the paths changed', () => {
  it('an edit that breaks, then its Undo', async () => {
    const broken = withActAttempts(engineer, 1);
    const first = takeResult(await run(engineer, 1), engineer, 1, emptyMemory(), null);
    expect(first.shown).toMatchObject({ shownVersion: 1, passed: 15, ran: 15, marks: [], changed: null });

    const second = takeResult(await run(broken, 2), broken, 1, first.memory, editWords(engineer, broken));
    expect(second.shown).toMatchObject({ shownVersion: 2, passed: 12, ran: 15 });
    expect(second.shown.brokeAfter.get(TIMEOUT)).toBe("Act's Max attempts 2 → 1");
    expect(second.shown.marks).toContainEqual({ scenario: TIMEOUT, kind: 'edge', id: 'g6', words: `‘${TIMEOUT}’ now takes g6 (empty) here; expected g3 (ok)` });
    expect([...second.shown.changed!.keys()]).toHaveLength(3);
    expect(second.shown.changed!.get(TIMEOUT)?.graph).toBe(engineer);
    expect(second.shown.expected.get(TIMEOUT)?.graph).toBe(engineer);
    expect(second.results.get(TIMEOUT)).toMatchObject({ status: 'failed', graph: broken, documentVersion: 1 });

    const undone = takeResult(await run(engineer, 3), engineer, 1, second.memory, editWords(broken, engineer));
    expect(undone.shown).toMatchObject({ passed: 15, marks: [] });
    expect(undone.shown.brokeAfter.size).toBe(0);
    expect(undone.shown.expected.size).toBe(0);
  });

  it('an edit that changes no scenario’s path says so', async () => {
    const renamed = { ...engineer, name: 'renamed' };
    const first = takeResult(await run(engineer, 1), engineer, 1, emptyMemory(), null);
    const second = takeResult(await run(renamed, 2), renamed, 1, first.memory, editWords(engineer, renamed));
    expect(second.shown.changed?.size).toBe(0);
  });
});
