/**
 * What a served graph takes from outside its own nodes. On a LangGraph server, a client writes the
 * channels in two ways: a run's input, and `updateState` (which the debugger's "Fork on server" and
 * "Approve on server" use). Neither may set what the runtime keeps — the ledger `_run` (grants,
 * overrides, script positions…) and the step record `_step` — or a run's input could grant the
 * DELETE a read-only graph forbids. The rule, as in the app's fork editor: the agent state is
 * taken through the state schema (`parseStateEdit`'s rule: the runtime's counters and each kind's
 * field group typed, the graph's own fields any JSON); the ledger takes one thing, a person's
 * decision for the approval that is next; the step record nothing.
 *
 * A write by one of the runtime's own nodes is told apart by identity: every object a node writes
 * is remembered (in this process, and only until collected) before LangGraph gets it, and a value
 * that came over the network is never one of them.
 */
import { describeProblems } from '../graph/index.ts';
import { parseWith } from '../graph/parse.ts';
import { STATE_FIELDS } from '../graph/state.ts';
import { RUN_CHANNEL, STEP_CHANNEL } from './state.ts';

const written = new WeakSet<object>();

/** Marks what a node writes as the runtime's own; returns the update as it is. */
export const writtenByRuntime = <T extends Record<string, unknown>>(update: T): T => {
  for (const key in update) {
    const value = update[key];
    if (typeof value === 'object' && value !== null) written.add(value);
  }
  return update;
};

const isRuntimeWrite = (value: unknown): boolean => typeof value === 'object' && value !== null && written.has(value);

/** Why a write that did not come from a node cannot go into `field`, or null when it can. */
export type OutsideWriteCheck = (value: unknown, current: unknown) => string | null;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Two JSON values alike, whatever the order of their keys. */
const sameJson = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
};

const DECISIONS: readonly unknown[] = ['approved', 'denied', null];

const kept = (field: string, what: string) =>
  `"${field}" is ${what}, kept by the Loopscope runtime: neither a run's input nor updateState can set it`;

/** The ledger from outside: the same ledger, with a person's decision for the approval next as its one change. */
const ledgerCheck: OutsideWriteCheck = (value, current) => {
  if (!isObject(value) || !isObject(current) || !DECISIONS.includes(value.decision)) return `${kept(RUN_CHANNEL, 'the run\'s ledger')} (a person's decision, {"decision": "approved"}, is the one change it takes)`;
  const { decision: _given, ...rest } = value;
  const { decision: _was, ...ledger } = current;
  return sameJson(rest, ledger) ? null : `${kept(RUN_CHANNEL, 'the run\'s ledger')}: only its "decision" may change`;
};

/**
 * The check of each channel a served graph takes from outside with a rule, by field: none for the
 * graph's own state fields (any JSON, as the app's fork editor takes them).
 */
export const outsideWriteCheck = (field: string): OutsideWriteCheck | undefined => {
  if (field === RUN_CHANNEL) return ledgerCheck;
  if (field === STEP_CHANNEL) return () => kept(STEP_CHANNEL, 'the record of the step that ran last');
  if (!Object.hasOwn(STATE_FIELDS, field)) return undefined;
  const schema = STATE_FIELDS[field];
  return (value) => {
    const parsed = parseWith(schema, value, [field]);
    return parsed.ok ? null : `"${field}" does not fit the state schema: ${describeProblems(parsed.problems)}`;
  };
};

/** Why these writes, from outside unless a node wrote them, cannot go into the channel; null when they can. */
export const refusedWrite = (check: OutsideWriteCheck, values: readonly unknown[], current: unknown): string | null => {
  for (const value of values) {
    if (isRuntimeWrite(value)) continue;
    const refusal = check(value, current);
    if (refusal) return refusal;
  }
  return null;
};
