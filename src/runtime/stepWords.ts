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
      return stopWhyWords(note.why);
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
  }
};
