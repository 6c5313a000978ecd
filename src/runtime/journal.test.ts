import { describe, expect, it } from 'vitest';
import type { GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import type { JournalEntry } from './controller.ts';
import { createController, runGraph, stateAfterStep } from './index.ts';
import { foldJournal, journalSteps, journalUpTo, lastEntryAt, putStep, stepOf, valuesAt } from './journal.ts';
import { agentState, channelNames, initialValues, type RunValues } from './state.ts';
import type { TraceStep } from './trace.ts';

/** The securityclaw template with a field no node writes: it shows which checkpoint a state was read from. */
const graphWithProbe = (): GraphFile => {
  const graph = (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();
  return { ...graph, state: { ...graph.state, probe: 'initial' } };
};

/** A whole run of the graph, recorded (compact steps, as the page keeps them). */
const recordedRun = async (graph: GraphFile) => {
  const controller = createController(graph, { compact: true });
  await controller.run();
  return { journal: controller.journal, trace: controller.trace };
};

const entries = (...steps: number[]): JournalEntry[] => steps.map((step, index) => ({ step, update: { index } }));

describe('stepOf', () => {
  it('keeps the state before the step unless compact', () => {
    const graph = graphWithProbe();
    const values = initialValues(graph, 1);
    const step = { step: 1, node: 'decide' } as TraceStep;
    const update = { plan: { signature: 'x' }, _run: { ...values._run, step: 1 }, _step: step };
    expect(stepOf(values, update, false)).toEqual({ ...step, stateBefore: agentState(values) });
    expect(stepOf(values, update, true)).toBe(step);
    expect(values).toEqual(initialValues(graph, 1));
  });
});

describe('putStep', () => {
  it('adds a new step and replaces an edit of the last one in place', () => {
    const steps = [{ step: 1, note: 'a' }] as TraceStep[];
    const same = steps;
    putStep(steps, { step: 2, note: 'b' } as TraceStep);
    putStep(steps, { step: 2, note: 'stopped' } as TraceStep);
    expect(steps.map((step) => `${step.step}${step.note}`)).toEqual(['1a', '2stopped']);
    expect(steps).toBe(same);
  });
});

describe('lastEntryAt and journalUpTo', () => {
  it('find the last entry at or before a step', () => {
    const journal = entries(0, 1, 1, 2, 4);
    expect([-1, 0, 1, 2, 3, 4, 9].map((step) => lastEntryAt(journal, step))).toEqual([-1, 0, 2, 3, 3, 4, 4]);
    expect(lastEntryAt([], 3)).toBe(-1);
    expect(journalUpTo(journal, 1).map((entry) => entry.update.index)).toEqual([0, 1, 2]);
    expect(journalUpTo(journal, -1)).toEqual([]);
  });
});

describe('a recorded journal', () => {
  it('folds to the run’s final values, and its steps are the trace’s', async () => {
    const { journal, trace } = await recordedRun(graphWithProbe());
    const values = foldJournal(journal) as RunValues;
    expect(agentState(values)).toEqual(trace.finalState);
    expect(values._run.stop?.reason).toBe('completed');
    expect(journalSteps(journal)).toEqual(trace.steps);
  });

  it('gives the state at every step with no checkpoint kept, as the trace replayed does', async () => {
    const graph = graphWithProbe();
    const full = await runGraph(graph);
    const { journal } = await recordedRun(graph);
    const values = foldJournal(journal) as RunValues;
    for (let step = 0; step <= full.steps.length; step += 1) {
      const at = valuesAt({ channels: channelNames(graph), values, journal, kept: [] }, step);
      expect(agentState(at as RunValues)).toEqual(stateAfterStep(full, step));
    }
    expect(valuesAt({ channels: channelNames(graph), values, journal, kept: [] }, values._run.step)).toBe(values);
    expect(valuesAt({ channels: channelNames(graph), values, journal, kept: [] }, values._run.step + 1)).toBeNull();
    expect(valuesAt({ channels: channelNames(graph), values, journal, kept: [] }, -1)).toBeNull();
    expect(valuesAt({ channels: channelNames(graph), values, journal: [], kept: [] }, 2)).toBeNull();
  });

  it('reads a step from the checkpoint kept for it, or replays the journal from the nearest one before it', async () => {
    const graph = graphWithProbe();
    const { journal } = await recordedRun(graph);
    const values = foldJournal(journal) as RunValues;
    const atThree = valuesAt({ channels: channelNames(graph), values, journal, kept: [] }, 3) as RunValues;
    // Kept checkpoints, newest first: one after step 3 whose probe says so, with a field nothing had written (undefined) and a value that is no channel.
    const kept = [{ ...values, probe: 'latest' }, { ...atThree, probe: 'kept at 3', recovery: undefined, notAChannel: 1 }];
    const read = (step: number) => valuesAt({ channels: channelNames(graph), values, journal, kept }, step) as RunValues;
    expect(read(3)).toEqual({ ...atThree, probe: 'kept at 3', recovery: undefined });
    expect(Object.hasOwn(read(3), 'recovery')).toBe(false);
    expect(read(5)).toEqual({ ...valuesAt({ channels: channelNames(graph), values, journal, kept: [] }, 5), probe: 'kept at 3' });
    expect(read(2).probe).toBe('initial');
  });
});
