/**
 * The one place a reason (reason.ts) is put in words in full: for a step's detail, the timeline,
 * the command line, scenario failures and test reports (`evaluation.plan_exhausted eq true (was
 * true)`). Its short form for an edge's label (`plan_exhausted = true`) is reasonLabel.ts, a module
 * of its own because the canvas draws labels on the first screen and this one loads with a run.
 */
import type { Reason } from './reason.ts';
import { show } from './reasonLabel.ts';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A LangGraph `Send` as the server's events give it. */
export const isSend = (value: unknown): value is { node: string; args?: unknown } => isRecord(value) && value.lg_name === 'Send' && typeof value.node === 'string';

/** A value a router returned, in a few words: `"tools"`, `Send(generateJoke, {"subject":"lions"})`, a list of them. */
export const returnedWords = (returned: unknown): string => {
  const one = (value: unknown) => (isSend(value) ? `Send(${value.node}, ${JSON.stringify(value.args ?? null)})` : JSON.stringify(value) ?? String(value));
  return Array.isArray(returned) ? `[${returned.map(one).join(', ')}]` : one(returned);
};

/** Names in order, a repeated one once with its count: `generate ×3, review`. */
const counted = (names: string[]): string => {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, count]) => (count > 1 ? `${name} ×${count}` : name)).join(', ');
};

const NOT_EVALUATED = (limit: number) => `condition nested deeper than ${limit} levels: not evaluated`;

/** A reason in full, with the values it read. */
export const reasonWords = (reason: Reason): string => {
  switch (reason.is) {
    case 'always':
      return 'always';
    case 'otherwise':
      return reason.matched ? 'otherwise: no other edge matched' : 'otherwise: only when no other edge matches';
    case 'outcome':
      return reason.matched === false ? `outcome is ${show(reason.actual)}, not "${reason.expected}"` : `outcome is "${reason.expected}"`;
    case 'field': {
      const condition = reason.operator === 'exists' ? `${reason.path} exists` : reason.operator === 'empty' ? `${reason.path} is empty` : `${reason.path} ${reason.operator} ${show(reason.expected)}`;
      return reason.matched === undefined ? condition : `${condition} (was ${show(reason.actual)})`;
    }
    case 'all':
    case 'any':
      return `${reason.is} of [${reason.parts.map((part) => `${reasonWords(part)}${part.matched === undefined ? '' : `: ${part.matched ? 'yes' : 'no'}`}`).join('; ')}]`;
    case 'not':
      return `not (${reasonWords(reason.part)})`;
    case 'too_deep':
      return NOT_EVALUATED(reason.limit);
    case 'not_tried':
      return `not tried: ${reason.fired} fired first`;
    case 'route':
      if (reason.chose) return reason.conditional ? `conditional${reason.label ? ` (${reason.label})` : ''}, chose ${counted(reason.chose)} of {${(reason.of ?? []).join(', ')}}` : reason.drawn === false ? 'next' : 'plain edge';
      return reason.conditional ? (reason.matched ? 'chosen' : 'not chosen') : reason.matched ? 'plain edge' : 'plain edge, not taken';
    case 'router': {
      const value = returnedWords(reason.returned);
      if (reason.router) {
        const { name, file, lines } = reason.router;
        const where = lines.length === 1 ? `line ${lines[0]}` : `one of lines ${lines.join(', ')}`;
        return `${name ?? 'The inline router'} (${file}) returned ${value} after ${reason.node}, at ${where}`;
      }
      // No router yet (the source, or a file it imports the router from, is still being read): nothing is said of it until it is.
      return `The router after ${reason.node} returned ${value}${reason.missing ? `; ${reason.missing}` : ''}`;
    }
    case 'command':
      return `${reason.node} returned a Command: goto ${reason.goto === null ? 'none' : returnedWords(reason.goto)}, update ${JSON.stringify(reason.update) ?? 'none'}`;
    case 'said':
      return reason.words;
  }
};

/** What a trace holds of an edge tried or fired: the reason as data, or, in a trace made before reasons were data, in words. */
export type StoredReason = { why: Reason } | { explain: string } | { reason: string };

/** The reason a trace holds, its old words read as said: they read as they always did. */
export const storedReason = (stored: StoredReason): Reason =>
  'why' in stored ? stored.why : { is: 'said', words: 'explain' in stored ? stored.explain : stored.reason };

/** The reason a trace holds of an edge tried or fired, in full words. */
export const storedWords = (stored: StoredReason): string => reasonWords(storedReason(stored));
