/** Step notes and run stops as data (issue 55): each form's words, and traces made before still read the same. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GraphFile } from '../graph/index.ts';
import { FIXTURES } from './fixtures/index.ts';
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

  it('words each note of an inner loop: its iterations and how it ended in each kind', () => {
    const guard = { reason: 'budget_exhausted' as const, why: { is: 'budget_spent' as const, used: 10, limit: 10, attempt: 2, skill: 'grep' } };
    const observed = [{ skill: 'grep', outcome: 'timeout' }];
    const cases: [Note, string][] = [
      [{ is: 'decider_failed', skill: 'think', outcome: 'parse_error', error: 'not JSON' }, 'the decider think failed with parse_error (not JSON)'],
      [{ is: 'decider_failed', skill: 'think', outcome: 'timeout' }, 'the decider think failed with timeout'],
      [{ is: 'answered_done', iterations: 2 }, 'done after 2 iteration(s)'],
      [{ is: 'answered_done', iterations: 1, error: 'the repository is gone' }, 'done with an error after 1 iteration(s): the repository is gone'],
      [{ is: 'not_a_tool', tool: 'rm', tools: ['grep', 'cat'] }, "rm is not one of this loop's tools (grep, cat)"],
      [{ is: 'not_a_tool', tool: 'rm', tools: [] }, "rm is not one of this loop's tools (none)"],
      [{ is: 'tool_returned', tool: 'grep', records: 3 }, 'grep returned 3 record(s)'],
      [{ is: 'tool_failed', skill: 'grep', outcome: 'timeout', error: 'slow', attempts: 3, loop: 'ended' }, 'grep failed with timeout after 3 attempt(s)'],
      [{ is: 'tool_failed', skill: 'grep', outcome: 'timeout', attempts: 3, loop: 'observed' }, 'grep failed with timeout after 3 attempt(s); the decider sees the failure and goes on (onToolFailure: observe)'],
      [{ is: 'tool_failed', skill: 'write', outcome: 'permission_denied', error: 'read-only', attempts: 0, loop: 'denied' }, 'write was denied by the permission check: read-only'],
      [{ is: 'loop', node: 'act', iterations: 3, ended: { is: 'done', calls: 2, records: 1 }, observed }, 'done after 3 iteration(s): 2 tool call(s) returned 1 record(s); 1 failed tool call(s) (grep: timeout) observed by the decider, which went on'],
      [{ is: 'loop', node: 'act', iterations: 2, ended: { is: 'budget', stop: guard, records: 4, calls: 1 } }, 'iteration 2: 1 tool call(s) returned 4 record(s); no further call, the budget is spent (tokens 10/10 before attempt 2 of grep: the budget is used up)'],
      [{ is: 'loop', node: 'act', iterations: 1, ended: { is: 'failed', by: 'tool', skill: 'grep', outcome: 'timeout' } }, 'iteration 1: grep failed with timeout'],
      [{ is: 'loop', node: 'act', iterations: 1, ended: { is: 'failed', by: 'decider', skill: 'think', outcome: 'error', error: 'boom' } }, 'iteration 1: the decider think failed with error (boom)'],
      [{ is: 'loop', node: 'act', iterations: 1, ended: { is: 'failed', by: 'tool', skill: 'write', outcome: 'permission_denied', error: 'read-only', denied: true } }, 'iteration 1: write was denied: read-only'],
      [{ is: 'loop', node: 'act', iterations: 2, ended: { is: 'done_error', decider: 'think', message: 'gone' } }, 'iteration 2: the decider think answered done with an error: gone'],
      [{ is: 'loop', node: 'act', iterations: 3, ended: { is: 'max_iter', maxIter: 3 } }, 'max_iter reached: 3 iteration(s) without done — an error that routes, not a success'],
      [{ is: 'loop', node: 'collect', iterations: 2, ended: { is: 'budget', stop: guard, records: 4 } }, 'gathered 4 record(s); no further call, the budget is spent (tokens 10/10 before attempt 2 of grep: the budget is used up)'],
      [{ is: 'loop', node: 'collect', iterations: 1, ended: { is: 'failed', by: 'decider', skill: 'think', outcome: 'timeout', error: 'slow' } }, 'iteration 1: the decider think failed with timeout (slow)'],
      [{ is: 'loop', node: 'collect', iterations: 3, ended: { is: 'max_iter', maxIter: 3, records: 2 } }, 'max_iter reached: 3 iteration(s) without done — an error that routes, not a success; 2 record(s) gathered'],
      [{ is: 'loop', node: 'collect', iterations: 2, ended: { is: 'done', records: 0 } }, 'done after 2 iteration(s): nothing gathered'],
      [{ is: 'loop', node: 'collect', iterations: 2, ended: { is: 'done', records: 5 }, observed }, 'done after 2 iteration(s): gathered 5 record(s); 1 failed tool call(s) (grep: timeout) observed by the decider, which went on'],
      [{ is: 'loop', node: 'reason', iterations: 1, ended: { is: 'failed', by: 'tool', skill: 'write', outcome: 'permission_denied', error: 'read-only', denied: true } }, 'iteration 1: write was denied: read-only: no plan'],
      [{ is: 'loop', node: 'reason', iterations: 1, ended: { is: 'done_error', decider: 'planner', message: 'gone' } }, 'iteration 1: the decider planner answered done with an error: gone: no plan'],
      [{ is: 'loop', node: 'reason', iterations: 2, ended: { is: 'max_iter', maxIter: 2 } }, 'max_iter reached: 2 iteration(s) without done — an error that routes, not a success: no plan'],
      [{ is: 'loop', node: 'reason', iterations: 2, ended: { is: 'reasoning', decider: 'planner' } }, 'the decider planner answered done with no plan after 2 iteration(s): its output is written to reasoning and routes ok (loop.output: any); the plan stays as it was'],
      [{ is: 'loop', node: 'verify', iterations: 1, ended: { is: 'failed', by: 'tool', skill: 'run_tests', outcome: 'timeout', error: 'slow', reason: 'timeout' } }, 'iteration 1: run_tests ended with timeout (slow): the plan is exhausted (timeout)'],
      [{ is: 'loop', node: 'verify', iterations: 1, ended: { is: 'done_error', decider: 'checker', message: 'gone' } }, 'iteration 1: the decider checker answered done with an error: gone: the plan is exhausted'],
      [{ is: 'loop', node: 'verify', iterations: 2, ended: { is: 'max_iter', maxIter: 2 } }, 'max_iter reached: 2 iteration(s) without done — an error that routes, not a success: the plan is exhausted'],
      [{ is: 'stopped', why: guard.why, observed }, 'tokens 10/10 before attempt 2 of grep: the budget is used up; 1 failed tool call(s) (grep: timeout) observed by the decider, which went on'],
    ];
    expect(cases.map(([note]) => noteWords(note))).toEqual(cases.map(([, words]) => words));
  });

  it("words each note of a Collect's skills, a Reason's plan and a Verify's verdict", () => {
    const guard = { reason: 'budget_exhausted' as const, why: { is: 'budget_spent' as const, used: 10, limit: 10, attempt: 1, skill: 'search' } };
    const cases: [Note, string][] = [
      [{ is: 'collected', ended: { is: 'gathered', records: 2, from: ['search', 'lookup'] } }, 'gathered 2 record(s) from search, lookup'],
      [{ is: 'collected', ended: { is: 'gathered', records: 2, from: ['flaky'] }, spent: true }, 'gathered 2 record(s) from flaky; no further call: the budget is spent'],
      [{ is: 'collected', ended: { is: 'nothing', skills: 2 }, over: { count: 1, maxIter: 2 } }, '2 skill(s) gathered nothing (1 skill(s) over maxIter 2 not run)'],
      [{ is: 'collected', ended: { is: 'failed', skill: 'search', outcome: 'timeout', error: 'slow' } }, 'search failed with timeout (slow)'],
      [{ is: 'collected', ended: { is: 'budget', stop: guard } }, 'tokens 10/10 before attempt 1 of search: the budget is used up'],
      [{ is: 'plan', source: { is: 'scripted', index: 2, of: 2, lastRepeats: true }, signature: 'search({})' }, 'scripted plan 2 of 2 (the last repeats): search({})'],
      [{ is: 'plan', source: { is: 'scripted', index: 1, of: 2 }, after: { action: 'expand_search_scope', reason: 'empty_result' }, signature: 'search({})' }, 'scripted plan 1 of 2 after the recovery expand_search_scope for empty_result: search({})'],
      [{ is: 'plan', source: { is: 'recovery', skill: 'search_wide', action: 'broaden', reason: 'empty_result' }, signature: 'search_wide({})' }, "recovery chose search_wide (broaden for empty_result), with the previous action's args: search_wide({})"],
      [{ is: 'plan', source: { is: 'decider', decider: 'planner', iterations: 2, observed: [{ skill: 'grep', outcome: 'timeout' }] }, signature: 'fix({})' }, 'the decider planner planned it after 2 iteration(s); 1 failed tool call(s) (grep: timeout) observed by the decider, which went on: fix({})'],
      [{ is: 'plan', source: { is: 'model', skill: 'gpt' }, signature: 'search({})', repeated: { blind: true } }, 'the same plan as last time with no recovery in between and no new evidence: a blind retry (the llm gpt planned it)'],
      [{ is: 'plan', source: { is: 'scripted', index: 1, of: 1 }, signature: 'search({})', repeated: { blind: false } }, 'the same plan as last time with no recovery in between (scripted plan 1 of 1)'],
      [{ is: 'no_plan', why: 'no_skill' }, 'the llm planner has no skill'],
      [{ is: 'no_plan', why: 'no_plans' }, 'no scripted plans'],
      [{ is: 'no_plan', why: 'llm_failed', outcome: 'timeout', error: 'slow' }, 'the llm planner failed: timeout (slow)'],
      [{ is: 'verdict', from: { is: 'judgement', judge: 'critic', said: 'two sources agree' } }, 'the judge critic: two sources agree'],
      [{ is: 'verdict', from: { is: 'judgement', decider: 'checker', iterations: 2, said: 'insufficient' } }, 'the decider checker, after 2 iteration(s): insufficient'],
      [{ is: 'verdict', from: { is: 'judge_failed', judge: 'critic', outcome: 'timeout', reason: 'timeout' } }, 'the judge critic failed with timeout: no judgement, the plan is exhausted (timeout)'],
      [{ is: 'verdict', from: { is: 'tool', answered: { is: 'ok', skill: 'run_tests', ok: 'true' }, decider: 'all green' } }, 'the tool run_tests answered ok: true (the verdict comes from the tool); the decider: all green'],
      [{ is: 'verdict', from: { is: 'tool', answered: { is: 'failed', skill: 'run_tests', outcome: 'error' } } }, 'the tool run_tests answered last, failing with error: a failure has no ok, so nothing is verified (the verdict comes from the tool)'],
      [{ is: 'verdict', from: { is: 'tool', answered: { is: 'none' } } }, 'no tool answered, so nothing was verified (the verdict comes from the tool)'],
      [{ is: 'verdict', from: { is: 'tool', answered: { is: 'kept' } } }, 'no tool answered in this visit, and none has before: nothing was verified (the verdict comes from the tool)'],
      [{ is: 'verdict', from: { is: 'tool', answered: { is: 'kept', verified: 'true', step: 2 } } }, 'no tool answered in this visit: the verdict is verified = true, written at step 2, and it holds until a tool answers again (loop.verdict: state) (the verdict comes from the tool)'],
      [{ is: 'verdict', from: { is: 'tool', answered: { is: 'kept', verified: 'false' } } }, "no tool answered in this visit: the verdict is verified = false, which no step of this run wrote (the initial state, or a fork's edit), and it holds until a tool answers again (loop.verdict: state) (the verdict comes from the tool)"],
      [{ is: 'verdict', from: { is: 'failed_before', skill: 'search', outcome: 'timeout', reason: 'timeout' } }, 'search ended with timeout: the plan is exhausted (timeout)'],
      [{ is: 'verdict', from: { is: 'counted', verdict: 'sufficient', records: 3, minRecords: 2 } }, '3 record(s), at least the 2 needed: the evidence is sufficient'],
      [{ is: 'verdict', from: { is: 'counted', verdict: 'empty_result', records: 0, minRecords: 1 } }, 'zero records: an empty result is not a success, the plan is exhausted'],
      [{ is: 'verdict', from: { is: 'counted', verdict: 'coverage_low', records: 1, minRecords: 2 }, observed: [{ skill: 'grep', outcome: 'timeout' }] }, '1 record(s), fewer than the 2 needed: coverage is low, keep going; 1 failed tool call(s) (grep: timeout) observed by the decider, which went on'],
    ];
    expect(cases.map(([note]) => noteWords(note))).toEqual(cases.map(([, words]) => words));
  });

  it('an inner-loop iteration whose note a trace made before notes were data holds in words still reads as it was said', () => {
    const step: TraceStep = {
      step: 1, round: 1, node: 'work', kind: 'act', outcome: 'ok', attempts: [], reads: [], writes: {}, edges: [], fired: null, guard: null, durationMs: 0,
      note: 'done after 1 iteration(s): 1 tool call(s) returned 2 record(s)', iterations: [{ n: 1, outcome: 'done', attempts: [], note: 'done after 1 iteration(s)' }], maxIter: 3,
    };
    const trace: Trace = { format: 'loopscope/trace', version: 1, graph: 'old', seed: 1, stopReason: null, rounds: 1, tokensUsed: 0, finalState: {}, steps: [step] };
    const parsed = parseTrace(serializeTrace(trace));
    expect(parsed.ok && parsed.value.steps[0]).toEqual(step);
    const iteration = parsed.ok ? parsed.value.steps[0].iterations?.[0] : undefined;
    expect(iteration?.note && noteWords(iteration.note)).toBe('done after 1 iteration(s)');
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
      // Every kind's note is data now, and so is each inner-loop iteration's.
      expect(trace.steps.filter((step) => typeof step.note === 'string' || step.iterations?.some((iteration) => typeof iteration.note === 'string')), old.scenario).toEqual([]);
      const parsed = parseTrace(serializeTrace(trace));
      expect(parsed.ok && parsed.value, old.scenario).toEqual(JSON.parse(JSON.stringify(trace)));
      // The import's quick path reads its steps too (not the full parse's fallback: null).
      expect((await readTrace(new Blob([serializeTrace(trace)])))?.steps, old.scenario).toEqual(JSON.parse(JSON.stringify(trace.steps)));
    }
  });

  it('an inner-loop run stores its iterations\' and steps\' notes as data, read back whole by the import\'s quick path', async () => {
    const trace = await runGraph(FIXTURES.innerLoop());
    expect(trace.steps.filter((step) => step.iterations?.length).length).toBeGreaterThan(0);
    expect(trace.steps.filter((step) => typeof step.note === 'string' || step.iterations?.some((iteration) => typeof iteration.note === 'string'))).toEqual([]);
    expect((await readTrace(new Blob([serializeTrace(trace)])))?.steps).toEqual(JSON.parse(JSON.stringify(trace.steps)));
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
