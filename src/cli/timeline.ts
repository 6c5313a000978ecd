/** The readable timeline of a trace for a terminal: a reader can tell why each edge was taken. */
import type { Attempt, Iteration, Trace, TraceStep } from '../runtime/index.ts';
import { visibleText } from '../graph/visible.ts';
import { storedWords } from '../graph/reasonWords.ts';
import { budgetSentence, guardCheckWords } from '../runtime/guards.ts';
import { noteWords, runStopWords, stopWords } from '../runtime/stepWords.ts';
import { stepsRan } from '../runtime/traceIndex.ts';

/** JSON cut to one readable line. */
const brief = (value: unknown, max = 160) => {
  const text = JSON.stringify(value) ?? '';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

const attemptLine = (attempt: Attempt, indent = '      ') =>
  `${indent}attempt ${attempt.n} ${attempt.skill}${attempt.access ? ` [${attempt.access}]` : ''}: ${attempt.outcome}` +
  `${attempt.records === undefined ? '' : `, ${attempt.records} record(s)`}, ${attempt.tokens} token(s)` +
  `${attempt.error ? ` — ${attempt.error}` : ''}` +
  // A call to a tool of a server (MCP) shows what it answered.
  `${attempt.access && attempt.returned?.length ? ` ← ${brief(attempt.returned)}` : ''}`;

/** An iteration of an inner loop: the decider's reply, then the tool call and its attempts, nested. */
const iterationLines = (iteration: Iteration): string[] => {
  const asked = iteration.tool ? `call ${iteration.tool}${iteration.args && Object.keys(iteration.args).length ? ` ${brief(iteration.args)}` : ''}` : iteration.outcome === 'done' ? 'done' : 'no reply';
  const lines = [`      ↻ iteration ${iteration.n}: ${asked}${iteration.tool ? ` → ${iteration.outcome}` : ''}${iteration.note ? ` — ${noteWords(iteration.note)}` : ''}`];
  for (const attempt of iteration.attempts) {
    lines.push(attemptLine(attempt, '          '));
    if (attempt.retry && attempt.outcome !== 'ok') lines.push(`              ↳ ${attempt.retry}`);
  }
  return lines;
};

const stepLines = (step: TraceStep): string[] => {
  const lines = [`  ${String(step.step).padStart(2)}. ${step.node} (${step.kind}) → ${step.guard && step.outcome === null ? 'not run' : (step.outcome ?? 'done')}`];
  if (step.guards?.length) lines.push(`      guards: ${step.guards.map((guard) => `${guardCheckWords(guard)}${guard.passed ? '' : ' ✗'}`).join(' · ')}`);
  if (step.note) lines.push(`      ${noteWords(step.note)}`);
  if (step.blindRetry) lines.push('      ! blind retry: the same plan with no new evidence');
  if (step.given) lines.push(`      ${step.given.skill} was given: ${step.given.reads.join(', ') || 'nothing'}`);
  if (step.iterations) {
    lines.push(`      inner loop: ${step.iterations.length} of max_iter ${step.maxIter ?? '?'} iteration(s)`);
    for (const iteration of step.iterations) lines.push(...iterationLines(iteration));
  } else
    for (const attempt of step.attempts) {
      lines.push(attemptLine(attempt));
      if (attempt.retry) lines.push(`          ↳ ${attempt.retry}`);
    }
  for (const edge of step.edges) lines.push(`      ${edge.matched ? '✓' : edge.skipped ? '·' : '✗'} ${edge.id} → ${edge.target ?? '?'}: ${storedWords(edge)}`);
  // A guard's stop already says it (the same sentence).
  if (step.budget && step.budget.at !== 'stopped') lines.push(`      ■ ${budgetSentence(step.budget)}`);
  if (step.guard) lines.push(`      ■ guard ${step.guard.reason}: ${stopWords(step.guard, step.budget)}`);
  return lines;
};

export const formatTimeline = (trace: Trace): string[] => {
  const lines = [`${trace.graph} — seed ${trace.seed}${trace.scenario ? `, scenario "${trace.scenario}"` : ''}`];
  let round = 0;
  for (const step of trace.steps) {
    if (step.round !== round) {
      round = step.round;
      lines.push(`── round ${round} ──`);
    }
    lines.push(...stepLines(step));
  }
  const stopped = runStopWords(trace);
  lines.push(`Stopped: ${trace.stopReason ?? 'not stopped'}${stopped ? ` — ${stopped}` : ''}`);
  lines.push(`${stepsRan(trace.steps)} step(s), ${trace.rounds} round(s), ${trace.tokensUsed} token(s)`);
  // Each line is one line: a name, id or server's error holding a newline or an escape is shown, never obeyed.
  return lines.map(visibleText);
};
