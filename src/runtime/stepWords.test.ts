/** Step notes and run stops as data (issue 55): each form's words, and traces made before still read the same. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GraphFile } from '../graph/index.ts';
import { stopsAsData } from './journal.ts';
import { runGraph } from './run.ts';
import { noteWords, runStopWords, stopWords, stopWhyWords } from './stepWords.ts';
import { readTrace } from './traceText.ts';
import { parseTrace, serializeTrace, type BudgetNote, type Note, type StopWhy, type Trace, type TraceStep } from './trace.ts';

const budget: BudgetNote = { at: 'stopped', used: 2010, limit: 2000, node: 'fix', evaluates: false };

describe('the one wording of a stop and a note (stepWords.ts)', () => {
  it('words each form of a stop', () => {
    const cases: [StopWhy, string][] = [
      [{ is: 'guard', hit: { reason: 'max_rounds', value: 6, limit: 5 } }, 'round 6 would exceed maxRounds 5'],
      [{ is: 'guard', hit: { reason: 'max_steps', value: 7, limit: 7 } }, 'steps 7 reached maxSteps 7'],
      [{ is: 'guard', hit: { reason: 'budget_exhausted', value: 25, limit: 25 } }, 'tokens used 25 reached the budget of 25'],
      [{ is: 'guard', hit: { reason: 'budget_exhausted', value: 2010, limit: 2000 }, budget }, 'the budget is spent (2,010 of 2,000 tokens): no further call; fix is not a Verify that judges without a call, so the run stops before it'],
      [{ is: 'budget_spent', used: 10, limit: 10, attempt: 2, skill: 'flaky' }, 'tokens 10/10 before attempt 2 of flaky: the budget is used up'],
      [{ is: 'budget_evaluated', budget: { ...budget, at: 'evaluated', node: 'check', evaluates: true } }, 'the budget is spent (2,010 of 2,000 tokens): no further call; the Verify node check judged what was gathered, then the run stops'],
      [{ is: 'no_route', node: 'verify', outcome: 'odd' }, 'no edge of verify matched outcome "odd"'],
      [{ is: 'no_route', node: 'verify', outcome: null }, 'no edge of verify matched outcome null'],
      [{ is: 'no_node', target: 'gone' }, 'there is no node "gone"'],
      [{ is: 'node_failed', node: 'answer', message: 'boom' }, 'answer failed: boom'],
      [{ is: 'executor_failed', message: 'boom' }, 'the LangGraph executor failed: boom'],
      [{ is: 'cannot_start', problem: 'the state field "toString" cannot be kept', rename: true }, 'the state field "toString" cannot be kept: rename it'],
      [{ is: 'cannot_start', problem: 'The graph has no entry node' }, 'The graph has no entry node'],
      [{ is: 'stop_node', node: 'halt', reason: 'no_recovery_path' }, 'stop node halt ended the run with no_recovery_path: stopping is not losing'],
      [{ is: 'responded', node: 'done' }, 'done wrote the response: the run completed'],
      [{ is: 'user' }, 'stopped by a person'],
      [{ is: 'end_reached' }, '__end__ reached'],
      [{ is: 'server_error', node: 'guard', error: 'refused' }, 'stopped with an error at node guard: refused'],
      [{ is: 'said', words: 'as it was said' }, 'as it was said'],
      [{ is: 'final_response', after: { is: 'stop_node', node: 'halt', reason: 'no_recovery_path' }, node: 'final' }, 'stop node halt ended the run with no_recovery_path: stopping is not losing; final wrote the final response'],
    ];
    expect(cases.map(([why]) => stopWhyWords(why))).toEqual(cases.map(([, words]) => words));
    // A step's stop: as data, a guard's numbers (with the step's spent budget), or an old trace's words.
    expect(stopWords({ reason: 'user_stopped', why: { is: 'user' } })).toBe('stopped by a person');
    expect(stopWords({ reason: 'max_rounds', value: 6, limit: 5 })).toBe('round 6 would exceed maxRounds 5');
    expect(stopWords({ reason: 'budget_exhausted', value: 2010, limit: 2000 }, budget)).toBe(stopWhyWords({ is: 'guard', hit: { reason: 'budget_exhausted', value: 2010, limit: 2000 }, budget }));
    expect(stopWords({ reason: 'error', explain: 'old words' })).toBe('old words');
    expect(runStopWords({ stopWhy: { is: 'user' } })).toBe('stopped by a person');
    expect(runStopWords({ stopExplain: 'old words' })).toBe('old words');
    expect(runStopWords({})).toBeUndefined();
  });

  it('words each form of a note, and a sentence as it is', () => {
    const cases: [Note | string, string][] = [
      [{ is: 'final_response', after: 'max_rounds' }, 'finally: the final response after the stop max_rounds'],
      [{ is: 'guard_stopped', before: 'decide' }, 'stopped by a guard before decide'],
      [{ is: 'threw', message: 'boom' }, 'the node threw: boom'],
      [{ is: 'stopped', why: { is: 'budget_spent', used: 10, limit: 10, attempt: 2, skill: 'flaky' } }, 'tokens 10/10 before attempt 2 of flaky: the budget is used up'],
      [{ is: 'forced_stop', reason: 'no_recovery_path' }, 'forced stop: no_recovery_path'],
      [{ is: 'responded' }, 'the response is written'],
      [{ is: 'recovery', reason: 'empty_result', chose: { action: 'broaden', skill: 'search_wide' }, skipped: [] }, 'empty_result → broaden with search_wide next round'],
      [{ is: 'recovery', reason: 'timeout', chose: 'person', skipped: [] }, 'timeout: the rule hands the run to a person'],
      [
        { is: 'recovery', reason: 'timeout', chose: null, skipped: [{ reason: 'timeout', action: 'retry', estTokens: 150, left: 100 }, { reason: 'otherwise', action: 'wait', estTokens: 200, left: 100 }] },
        'no rule applies to timeout; rule timeout → retry needs ~150 tokens but only 100 are left, so it does not apply; rule otherwise → wait needs ~200 tokens but only 100 are left, so it does not apply',
      ],
      [{ is: 'actions', ended: { is: 'returned', actions: 2, records: 2 }, over: { count: 1, maxIter: 2 } }, '2 action(s) returned 2 record(s) (1 over maxIter 2 not run)'],
      [{ is: 'actions', ended: { is: 'returned', actions: 1, records: 0 } }, '1 action(s) ran and returned zero records'],
      [{ is: 'actions', ended: { is: 'returned', actions: 1, records: 2 }, notRun: { count: 1, spent: true } }, '1 action(s) returned 2 record(s); 1 later action(s) not called: the budget is spent'],
      [{ is: 'actions', ended: { is: 'failed', skill: 'search', outcome: 'timeout', attempts: 3 }, notRun: { count: 2, spent: false } }, 'search failed with timeout after 3 attempt(s); 2 later action(s) not run'],
      [{ is: 'actions', ended: { is: 'denied', skill: 'write_file', error: 'the permission mode is read' } }, 'write_file was denied: the permission mode is read'],
      [{ is: 'actions', ended: { is: 'no_actions' } }, 'the plan has no actions'],
      [{ is: 'actions', ended: { is: 'budget', why: { is: 'budget_spent', used: 10, limit: 10, attempt: 2, skill: 'flaky' } } }, 'tokens 10/10 before attempt 2 of flaky: the budget is used up'],
      [{ is: 'approval', decision: 'approved', by: 'person', skill: 'write_file' }, 'approved by person: write_file may run once'],
      [{ is: 'approval', decision: 'denied', by: 'auto', skill: 'write_file' }, 'denied by auto: write_file stays refused'],
      [
        { is: 'approval', decision: 'denied', by: 'default (headless, no auto)', decider: 'planner' },
        "denied by default (headless, no auto); planner was refused as a loop's decider, which an approval never grants (it is asked every iteration): permissions.mode must allow it",
      ],
      [{ is: 'server_route', node: 'callModel', to: ['tools'], why: { is: 'route', conditional: true, chose: ['tools'], of: ['tools', '__end__'], matched: true } }, 'callModel → tools: conditional, chose tools of {tools, __end__}'],
      [{ is: 'server_route', node: 'write', to: [], ended: 'run' }, 'write → —: the run ended here'],
      [{ is: 'server_route', node: 'inner', to: [], ended: 'subgraph' }, 'inner → —: the subgraph ended here'],
      [{ is: 'server_route', node: 'lost', to: [] }, 'lost → —: no edge'],
      [{ is: 'server_edit', node: 'supervisor', goto: ['writer'] }, 'state edited on the server as supervisor (updateState), then goto writer (Command)'],
      [{ is: 'server_edit', node: 'replan', goto: [] }, 'state edited on the server as replan (updateState)'],
      [{ is: 'server_failed', node: 'guard', error: 'refused' }, 'guard failed: refused'],
      ['2 action(s) returned 2 record(s)', '2 action(s) returned 2 record(s)'],
    ];
    expect(cases.map(([note]) => noteWords(note))).toEqual(cases.map(([, words]) => words));
  });
});

interface Case { template: string; scenario?: string; maxSteps?: number; trace: Trace }
/** Runs made by Loopscope before notes and stops were data (main at 363216f), without their states. */
const before: Case[] = JSON.parse(readFileSync(new URL('./fixtures/traces-before-notes-were-data.json', import.meta.url), 'utf8'));
const graphOf = ({ template, maxSteps }: Case): GraphFile => {
  const graph = JSON.parse(readFileSync(new URL(`../graph/templates/${template}.json`, import.meta.url), 'utf8')) as GraphFile;
  if (maxSteps !== undefined) graph.limits.maxSteps = maxSteps;
  return graph;
};
/** What the step view and the command line say of a step: its note and its stop. */
const said = (step: TraceStep) => [step.note === undefined ? null : noteWords(step.note), step.stop ? stopWords(step.stop, step.budget) : null, step.guard ? stopWords(step.guard, step.budget) : null];

describe('notes and stops in a trace are data (issue 55)', () => {
  it('a trace made before, its notes and stops in words, still opens and reads as it did', async () => {
    for (const { trace } of before) {
      const parsed = parseTrace(serializeTrace(trace));
      expect(parsed.ok && parsed.value).toEqual(trace);
      expect((await readTrace(new Blob([serializeTrace(trace)])))?.steps).toEqual(trace.steps);
      if (!parsed.ok) continue;
      expect(runStopWords(parsed.value)).toBe(trace.stopExplain);
      for (const step of parsed.value.steps) {
        if (typeof step.note === 'string') expect(noteWords(step.note)).toBe(step.note);
        if (step.stop && 'explain' in step.stop) expect(stopWords(step.stop)).toBe(step.stop.explain);
      }
    }
  });

  it('the same runs now store data, read the same words, and round-trip through their file', async () => {
    for (const old of before) {
      const trace = await runGraph(graphOf(old), old.scenario === undefined ? {} : { scenario: old.scenario });
      expect(trace.stopExplain, old.scenario).toBeUndefined();
      expect(trace.stopWhy, old.scenario).toBeDefined();
      expect(runStopWords(trace), old.scenario).toBe(old.trace.stopExplain);
      expect(trace.steps.map(said), old.scenario).toEqual(old.trace.steps.map(said));
      // Not one stop in words, and the notes the runtime itself makes (not a kind's own sentence) are data.
      expect(trace.steps.filter((step) => step.stop && 'explain' in step.stop), old.scenario).toEqual([]);
      const runtimeNotes = /^(finally: |stopped by a guard|the node threw|forced stop|the response is written)/;
      expect(trace.steps.filter((step) => typeof step.note === 'string' && runtimeNotes.test(step.note)), old.scenario).toEqual([]);
      expect(trace.steps.filter((step) => (step.kind === 'recover' || step.kind === 'approve' || step.kind === 'act') && typeof step.note === 'string'), old.scenario).toEqual([]);
      const parsed = parseTrace(serializeTrace(trace));
      expect(parsed.ok && parsed.value, old.scenario).toEqual(JSON.parse(JSON.stringify(trace)));
      // The import's quick path reads its steps too (not the full parse's fallback: null).
      expect((await readTrace(new Blob([serializeTrace(trace)])))?.steps, old.scenario).toEqual(JSON.parse(JSON.stringify(trace.steps)));
    }
  });

  it('a run the page stored before stops were data comes back with its stop in words, as it was said', () => {
    const old = { step: 3, update: { _run: { seed: 1, stop: { reason: 'no_route', explain: 'no edge of a matched outcome "x"' }, closing: { reason: 'max_rounds', explain: 'round 6 would exceed maxRounds 5' } } } };
    const now = stopsAsData(old);
    const ledger = now.update._run as { stop: { reason: string; why: StopWhy }; closing: { reason: string; why: StopWhy } };
    expect(ledger.stop).toEqual({ reason: 'no_route', why: { is: 'said', words: 'no edge of a matched outcome "x"' } });
    expect(stopWords(ledger.stop)).toBe('no edge of a matched outcome "x"');
    expect(stopWords(ledger.closing)).toBe('round 6 would exceed maxRounds 5');
    const today = { step: 3, update: { _run: { seed: 1, stop: { reason: 'user_stopped', why: { is: 'user' } }, closing: null } } };
    expect(stopsAsData(today)).toBe(today);
  });
});
