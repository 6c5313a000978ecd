/**
 * The one place a step's note and a run's stop (trace.ts `Note`, `StopWhy`) are put in words, for
 * the step view, the timeline, the node's chip, the command line's timeline and reporters and
 * scenario failures; an edge's reason is reasonWords.ts's, a guard check's guards.ts's. A trace made
 * before notes and stops were data holds their words, shown as they were said.
 */
import { reasonWords } from '../graph/reasonWords.ts';
import { budgetSentence, guardCheckWords } from './guards.ts';
import type { BudgetNote, GuardHit, Note, StepNote, StepStop, StopWhy, Trace } from './trace.ts';

/** A guard's stop in a sentence: `round 6 would exceed maxRounds 5`. */
const guardSentence = (hit: GuardHit): string => {
  switch (hit.reason) {
    case 'max_rounds':
      return `round ${hit.value} would exceed maxRounds ${hit.limit}`;
    case 'max_steps':
      return `steps ${hit.value} reached maxSteps ${hit.limit}`;
    case 'budget_exhausted':
      return `tokens used ${hit.value} reached the budget of ${hit.limit}`;
  }
};

/** Why a run stopped, in a sentence: `no edge of verify matched outcome "odd"`. */
export const stopWhyWords = (why: StopWhy): string => {
  switch (why.is) {
    case 'guard':
      return why.budget?.at === 'stopped' ? budgetSentence(why.budget) : guardSentence(why.hit);
    case 'budget_spent':
      return `${guardCheckWords({ name: 'budget_exhausted', value: why.used, limit: why.limit, passed: false })} before attempt ${why.attempt} of ${why.skill}: the budget is used up`;
    case 'budget_evaluated':
      return budgetSentence(why.budget);
    case 'no_route':
      return `no edge of ${why.node} matched outcome ${JSON.stringify(why.outcome)}`;
    case 'no_node':
      return `there is no node "${why.target}"`;
    case 'node_failed':
      return `${why.node} failed: ${why.message}`;
    case 'executor_failed':
      return `the LangGraph executor failed: ${why.message}`;
    case 'cannot_start':
      return why.rename ? `${why.problem}: rename it` : why.problem;
    case 'stop_node':
      return `stop node ${why.node} ended the run with ${why.reason}: stopping is not losing`;
    case 'responded':
      return `${why.node} wrote the response: the run completed`;
    case 'user':
      return 'stopped by a person';
    case 'final_response':
      return `${stopWhyWords(why.after)}; ${why.node} wrote the final response`;
    case 'end_reached':
      return '__end__ reached';
    case 'server_error':
      return `stopped with an error at node ${why.node}: ${why.error}`;
    case 'said':
      return why.words;
  }
};

/**
 * A step's stop in a sentence, for the step view, the node's chip and the command line: a guard's
 * from its numbers, or from the spent budget (`budget`, the step's) under onBudget "evaluate".
 */
export const stopWords = (stop: StepStop, budget?: BudgetNote): string =>
  'why' in stop ? stopWhyWords(stop.why) : 'explain' in stop ? stop.explain : stopWhyWords({ is: 'guard', hit: stop, ...(budget ? { budget } : {}) });

/** The run's stop in a sentence, if the trace tells one. */
export const runStopWords = (trace: Pick<Trace, 'stopWhy' | 'stopExplain'>): string | undefined =>
  trace.stopWhy ? stopWhyWords(trace.stopWhy) : trace.stopExplain;

/** An Act's plan run, in a sentence: `2 action(s) returned 2 record(s) (1 over maxIter 2 not run)`. */
const actionsWords = ({ ended, notRun, over }: Extract<Note, { is: 'actions' }>): string => {
  const capped = over ? ` (${over.count} over maxIter ${over.maxIter} not run)` : '';
  const skipped = notRun ? `; ${notRun.count} later action(s) not ${notRun.spent ? 'called: the budget is spent' : 'run'}` : '';
  switch (ended.is) {
    case 'budget':
      return `${stopWhyWords(ended.why)}${capped}`;
    case 'no_actions':
      return 'the plan has no actions';
    case 'denied':
      return `${ended.skill} was denied: ${ended.error}${skipped}${capped}`;
    case 'failed':
      return `${ended.skill} failed with ${ended.outcome} after ${ended.attempts} attempt(s)${skipped}${capped}`;
    case 'returned':
      return `${ended.actions} action(s) ${ended.records === 0 ? 'ran and returned zero records' : `returned ${ended.records} record(s)`}${skipped}${capped}`;
  }
};

type LoopNote = Extract<Note, { is: 'loop' }>;
type VerdictNote = Extract<Note, { is: 'verdict' }>;

/** ` (timeout)`: a call's error, when it has one, after its outcome. */
const erred = (error: string | undefined) => (error ? ` (${error})` : '');

/** The failed tool calls a loop's decider observed and went on, after its step's sentence; empty when there were none. */
const observedWords = (observed: LoopNote['observed']) =>
  !observed?.length ? '' : `; ${observed.length} failed tool call(s) (${observed.map((call) => `${call.skill}: ${call.outcome}`).join(', ')}) observed by the decider, which went on`;

/** A loop that used every iteration: the one wording of its step's note and of the `execution_error` an Act writes. */
export const maxIterWords = (maxIter: number) => `max_iter reached: ${maxIter} iteration(s) without done — an error that routes, not a success`;

/** How an inner loop ended, in a sentence: `done after 3 iteration(s): gathered 2 record(s)`. */
const loopWords = ({ node, iterations, ended, observed }: LoopNote): string => {
  // A Reason with no plan, and a Verify whose loop failed, say what that leaves.
  const after = node === 'reason' ? ': no plan' : node === 'verify' ? ': the plan is exhausted' : '';
  switch (ended.is) {
    case 'budget': {
      const spent = `no further call, the budget is spent (${stopWords(ended.stop)})`;
      return node === 'act' ? `iteration ${iterations}: ${ended.calls ?? 0} tool call(s) returned ${ended.records} record(s); ${spent}` : `gathered ${ended.records} record(s); ${spent}`;
    }
    case 'failed': {
      if (node === 'verify') return `iteration ${iterations}: ${ended.skill} ended with ${ended.outcome}${erred(ended.error)}${after} (${ended.reason})`;
      if (node === 'collect') return `iteration ${iterations}: ${ended.by === 'decider' ? 'the decider ' : ''}${ended.skill} failed with ${ended.outcome}${erred(ended.error)}`;
      const who = ended.by === 'decider' ? `the decider ${ended.skill}` : ended.skill;
      return `iteration ${iterations}: ${who} ${ended.denied ? `was denied: ${ended.error}` : `failed with ${ended.outcome}${erred(ended.error)}`}${after}`;
    }
    case 'done_error':
      return `iteration ${iterations}: the decider ${ended.decider} answered done with an error: ${ended.message}${after}`;
    case 'max_iter':
      return `${maxIterWords(ended.maxIter)}${node === 'collect' ? `; ${ended.records ?? 0} record(s) gathered` : after}`;
    case 'done': {
      const did = node === 'act' ? `${ended.calls ?? 0} tool call(s) returned ${ended.records} record(s)` : ended.records === 0 ? 'nothing gathered' : `gathered ${ended.records} record(s)`;
      return `done after ${iterations} iteration(s): ${did}${observedWords(observed)}`;
    }
    case 'reasoning':
      return `the decider ${ended.decider} answered done with no plan after ${iterations} iteration(s): its output is written to reasoning and routes ok (loop.output: any); the plan stays as it was${observedWords(observed)}`;
  }
};

/** A Collect's skills run in order, in a sentence: `gathered 2 record(s) from search`. */
const collectedWords = ({ ended, spent, over }: Extract<Note, { is: 'collected' }>): string => {
  const tail = `${spent ? '; no further call: the budget is spent' : ''}${over ? ` (${over.count} skill(s) over maxIter ${over.maxIter} not run)` : ''}`;
  switch (ended.is) {
    case 'budget':
      return `${stopWords(ended.stop)}${tail}`;
    case 'failed':
      return `${ended.skill} failed with ${ended.outcome}${erred(ended.error)}${tail}`;
    case 'nothing':
      return `${ended.skills} skill(s) gathered nothing${tail}`;
    case 'gathered':
      return `gathered ${ended.records} record(s) from ${ended.from.join(', ')}${tail}`;
  }
};

/** Where a Reason's plan came from, in words: `scripted plan 2 of 3`. */
const planSourceWords = ({ source, after }: Extract<Note, { is: 'plan' }>): string => {
  const recovered = after ? ` after the recovery ${after.action} for ${after.reason}` : '';
  switch (source.is) {
    case 'recovery':
      return `recovery chose ${source.skill} (${source.action} for ${source.reason}), with the previous action's args${recovered}`;
    case 'decider':
      return `the decider ${source.decider} planned it after ${source.iterations} iteration(s)${observedWords(source.observed)}${recovered}`;
    case 'model':
      return `the llm ${source.skill} planned it${recovered}`;
    case 'scripted':
      return `scripted plan ${source.index} of ${source.of}${source.lastRepeats ? ' (the last repeats)' : ''}${recovered}`;
  }
};

/** A Verify's verdict, in a sentence: the evaluation's `reasoning` (and the step's note, with the failures its loop observed). */
export const verdictWords = ({ from, observed }: Pick<VerdictNote, 'from'> & Partial<Pick<VerdictNote, 'observed'>>): string => {
  const said = (() => {
    switch (from.is) {
      case 'judgement':
        return `${from.judge === undefined ? `the decider ${from.decider}, after ${from.iterations} iteration(s)` : `the judge ${from.judge}`}: ${from.said}`;
      case 'judge_failed':
        return `the judge ${from.judge} failed with ${from.outcome}${erred(from.error)}: no judgement, the plan is exhausted (${from.reason})`;
      case 'tool': {
        const { answered } = from;
        const read = answered.is === 'ok' ? `the tool ${answered.skill} answered ok: ${answered.ok}`
          : answered.is === 'failed' ? `the tool ${answered.skill} answered last, failing with ${answered.outcome}: a failure has no ok, so nothing is verified`
          : answered.is === 'none' ? 'no tool answered, so nothing was verified'
          : answered.verified === undefined ? 'no tool answered in this visit, and none has before: nothing was verified'
          : `no tool answered in this visit: the verdict is verified = ${answered.verified}, ${answered.step ? `written at step ${answered.step}` : 'which no step of this run wrote (the initial state, or a fork\'s edit)'}, and it holds until a tool answers again (loop.verdict: state)`;
        return `${read} (the verdict comes from the tool)${from.decider ? `; the decider: ${from.decider}` : ''}`;
      }
      case 'failed_before':
        return `${from.skill} ended with ${from.outcome}: the plan is exhausted (${from.reason})`;
      case 'counted':
        return {
          sufficient: `${from.records} record(s), at least the ${from.minRecords} needed: the evidence is sufficient`,
          empty_result: 'zero records: an empty result is not a success, the plan is exhausted',
          coverage_low: `${from.records} record(s), fewer than the ${from.minRecords} needed: coverage is low, keep going`,
        }[from.verdict];
    }
  })();
  return `${said}${observedWords(observed)}`;
};

/** What a step concluded, in a sentence: `the node threw: boom`. */
export const noteWords = (note: StepNote): string => {
  if (typeof note === 'string') return note;
  switch (note.is) {
    case 'final_response':
      return `finally: the final response after the stop ${note.after}`;
    case 'guard_stopped':
      return `stopped by a guard before ${note.before}`;
    case 'threw':
      return `the node threw: ${note.message}`;
    case 'stopped':
      return `${stopWhyWords(note.why)}${observedWords(note.observed)}`;
    case 'forced_stop':
      return `forced stop: ${note.reason}`;
    case 'responded':
      return 'the response is written';
    case 'actions':
      return actionsWords(note);
    case 'recovery': {
      const why = note.skipped.map((rule) => `; rule ${rule.reason} → ${rule.action} needs ~${rule.estTokens} tokens but only ${rule.left} are left, so it does not apply`).join('');
      if (note.chose === null) return `no rule applies to ${note.reason}${why}`;
      if (note.chose === 'person') return `${note.reason}: the rule hands the run to a person${why}`;
      return `${note.reason} → ${note.chose.action}${note.chose.skill ? ` with ${note.chose.skill} next round` : ''}${why}`;
    }
    case 'approval': {
      const skill = note.skill ? `: ${note.skill} ${note.decision === 'approved' ? 'may run once' : 'stays refused'}` : '';
      const ungranted = note.decider ? `; ${note.decider} was refused as a loop's decider, which an approval never grants (it is asked every iteration): permissions.mode must allow it` : '';
      return `${note.decision} by ${note.by}${skill}${ungranted}`;
    }
    case 'server_route': {
      const why = note.ended === 'subgraph' ? 'the subgraph ended here' : note.ended === 'run' ? 'the run ended here' : note.why ? reasonWords(note.why) : 'no edge';
      return `${note.node} → ${note.to.length ? note.to.join(', ') : '—'}: ${why}`;
    }
    case 'server_edit':
      return `state edited on the server as ${note.node} (updateState)${note.goto.length ? `, then goto ${note.goto.join(', ')} (Command)` : ''}`;
    case 'server_failed':
      return `${note.node} failed: ${note.error}`;
    case 'decider_failed':
      return `the decider ${note.skill} failed with ${note.outcome}${erred(note.error)}`;
    case 'answered_done':
      return note.error === undefined ? `done after ${note.iterations} iteration(s)` : `done with an error after ${note.iterations} iteration(s): ${note.error}`;
    case 'not_a_tool':
      return `${note.tool} is not one of this loop's tools (${note.tools.join(', ') || 'none'})`;
    case 'tool_returned':
      return `${note.tool} returned ${note.records} record(s)`;
    case 'tool_failed':
      if (note.loop === 'denied') return `${note.skill} was denied by the permission check: ${note.error}`;
      if (note.loop === 'ended') return `${note.skill} failed with ${note.outcome} after ${note.attempts} attempt(s)`;
      return `${note.skill} failed with ${note.outcome}${erred(note.error)} after ${note.attempts} attempt(s); the decider sees the failure and goes on (onToolFailure: observe)`;
    case 'loop':
      return loopWords(note);
    case 'collected':
      return collectedWords(note);
    case 'plan': {
      const source = planSourceWords(note);
      if (!note.repeated) return `${source}: ${note.signature}`;
      return `the same plan as last time with no recovery in between${note.repeated.blind ? ' and no new evidence: a blind retry' : ''} (${source})`;
    }
    case 'no_plan':
      return note.why === 'no_skill' ? 'the llm planner has no skill' : note.why === 'no_plans' ? 'no scripted plans' : `the llm planner failed: ${note.outcome}${erred(note.error)}`;
    case 'verdict':
      return verdictWords(note);
  }
};
