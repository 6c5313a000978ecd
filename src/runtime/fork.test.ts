import { describe, expect, it } from 'vitest';
import type { GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { createController } from './index.ts';
import { forkStart, type ForkSource } from './fork.ts';
import { foldJournal, journalUpTo, valuesAt } from './journal.ts';
import { channelNames, type RunValues } from './state.ts';
import type { TraceStep } from './trace.ts';

const graph = (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();
// A reason no edge of SecurityClaw names (coverage_low goes to recovery): the evaluation routes otherwise.
const edited = { evidence_sufficient: false, plan_exhausted: false, reason: 'insufficient', reasoning: 'edited', records: 0 };

/** A whole securityclaw run, as a fork reads it from step `atStep`. */
const recorded = async (compact = false) => {
  const controller = createController(graph, { compact });
  await controller.run();
  const { journal, trace } = controller;
  const values = foldJournal(journal) as RunValues;
  const at = (step: number) => valuesAt({ channels: channelNames(graph), values, journal, kept: [] }, step);
  return { trace, source: (atStep: number, change: Partial<ForkSource> = {}): ForkSource => ({ graph, steps: trace.steps, journal, compact, base: at(atStep), ...change }) };
};

describe('forkStart', () => {
  it('keeps steps 1..N-1, takes the edited state, chooses step N’s edge again and records the edit as one entry at N', async () => {
    const { trace, source } = await recorded();
    const run = source(3);
    const start = forkStart(run, 3, { state: { evaluation: edited } });
    expect(start.values.evaluation).toEqual(edited);
    expect(start.values._run).toMatchObject({ step: 3, decision: null, stop: null });
    expect(start.steps.slice(0, 2)).toEqual(trace.steps.slice(0, 2));
    expect(start.steps[2]).toMatchObject({ step: 3, node: 'evaluate', fired: { id: 'e5', target: 'decide' }, stateBefore: trace.steps[2].stateBefore });
    expect(start.steps).toHaveLength(3);
    expect(start.journal.slice(0, -1)).toEqual(journalUpTo(run.journal, 3));
    expect(start.journal.at(-1)).toEqual({ step: 3, update: { evaluation: edited, _run: start.values._run, _step: start.values._step } });
    expect(start.values._step).toEqual({ ...start.steps[2], stateBefore: undefined });
    expect(start.values._step).not.toHaveProperty('stateBefore');
    expect(start.seedNode).toBe('evaluate');
    expect(start.forkedFrom).toEqual({ step: 3, edited: ['evaluation'], overridden: [] });
  });

  it('a compact run’s fork keeps no state before its step', async () => {
    const { source } = await recorded(true);
    expect(forkStart(source(3), 3, {}).steps[2]).not.toHaveProperty('stateBefore');
  });

  it('routes on another outcome of the step, and refuses one its kind does not have', async () => {
    const { source } = await recorded();
    const start = forkStart(source(3), 3, { outcome: 'sufficient' });
    expect(start.steps[2]).toMatchObject({ outcome: 'sufficient', fired: { id: 'e3', target: 'answer' } });
    expect(start.values._run.outcome).toBe('sufficient');
    expect(start.forkedFrom.edited).toEqual(['outcome']);
    expect(() => forkStart(source(3), 3, { outcome: 'approved' })).toThrow('"approved" is not an outcome of step 3 (a verify node has sufficient, exhausted, continue)');
  });

  it('serves a skill’s next results before what was queued for it', async () => {
    const { source } = await recorded();
    const run = source(2);
    const base = run.base as RunValues;
    const queued = { ...base, _run: { ...base._run, overrides: { search_events: [{ outcome: 'empty' as const }] } } };
    const start = forkStart({ ...run, base: queued }, 2, { nextResults: { search_events: [{ outcome: 'ok', records: [{}] }] } });
    expect(start.values._run.overrides.search_events.map((entry) => entry.outcome)).toEqual(['ok', 'empty']);
    expect(start.forkedFrom.overridden).toEqual(['search_events']);
  });

  it('from step 0 starts over from the initial state, with its edits, as the run’s input', async () => {
    const { source } = await recorded();
    const start = forkStart(source(0), 0, { state: { question: 'another?' } });
    expect(start).toMatchObject({ seedNode: null, steps: [], values: { question: 'another?', _step: null, _run: { step: 0 } } });
    expect(start.journal.map((entry) => entry.step)).toEqual([0, 0]);
  });

  it('lifts a person’s stop (they may go on), but not the end of a run', async () => {
    const { trace, source } = await recorded();
    const run = source(3);
    const base = run.base as RunValues;
    const stop = { reason: 'user_stopped', why: { is: 'user' as const } };
    const stopped = { ...base, _run: { ...base._run, stop }, _step: { ...(base._step as TraceStep), stop } };
    const steps = [...trace.steps.slice(0, 2), stopped._step];
    const start = forkStart({ ...run, steps, base: stopped }, 3, {});
    expect(start.values._run.stop).toBeNull();
    expect(start.steps[2].stop).toBeUndefined();
    const last = trace.steps.length;
    const ended = forkStart(source(last), last, {});
    expect(ended.values._run.stop?.reason).toBe('completed');
    expect(ended.steps.at(-1)).toEqual({ ...trace.steps.at(-1) });
  });

  it('refuses, naming why: an edit that does not fit, a state not kept, no such step, a step a guard stopped before its node', async () => {
    const { trace, source } = await recorded();
    expect(() => forkStart(source(3), 3, { state: { round: 'two' } })).toThrow('round: expected a number, got a string');
    expect(() => forkStart(source(3, { base: null }), 3, {})).toThrow('the state after step 3 was not kept');
    expect(() => forkStart(source(3, { steps: [] }), 4, {})).toThrow('run has no step 4');
    const guarded = trace.steps.map((step, index) => (index === 2 ? { ...step, attempts: [], guard: { reason: 'max_steps', explain: 'the step limit' } } : step));
    expect(() => forkStart(source(3, { steps: guarded }), 3, {})).toThrow('step 3 did not run its node (a guard stopped the run before it): fork from the step before');
  });
});
