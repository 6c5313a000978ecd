/**
 * `bad_operand`: a `contains` condition that can never match. `contains` asks whether the list at
 * `path` holds `value` (`recovery.tried contains "expand_search_scope"`): without a value it asks
 * nothing, and on a field that is never a list (a text, a number, an object) it is always false.
 */
import { fieldConditionsOf } from './describe.ts';
import type { GraphEdge, GraphFile } from './schema.ts';
import { STATE_FIELDS } from './state.ts';
import type { Problem } from './validate.ts';

/** What can be said of the field at `path` before a run: a list, never a list, or not known (any JSON). */
const listAt = (state: GraphFile['state'], path: string): 'list' | 'never' | 'unknown' => {
  const [group, ...inner] = path.split('.');
  if (Object.hasOwn(STATE_FIELDS, group)) {
    // A field the runtime or a node kind writes: its schema says whether a list fits (one level deep, as the kinds describe them).
    if (inner.length > 1) return 'unknown';
    const groupSchema = STATE_FIELDS[group];
    const def = groupSchema._zod.def as { type: string; shape?: Record<string, typeof groupSchema> };
    const schema = inner.length === 0 ? groupSchema : def.type === 'object' && def.shape && Object.hasOwn(def.shape, inner[0]) ? def.shape[inner[0]] : undefined;
    if (!schema) return 'unknown';
    return schema.safeParse([]).success ? 'list' : 'never';
  }
  // A field only the initial state holds: its value there.
  let value: unknown = state;
  for (const key of [group, ...inner]) value = value !== null && typeof value === 'object' && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  return value === undefined ? 'unknown' : Array.isArray(value) ? 'list' : 'never';
};

/** An edge's: what it reads of the graph is only the initial state, so an edit elsewhere keeps them (validate.ts). */
export const operandProblems = (state: GraphFile['state'], edge: GraphEdge, index: number): Problem[] =>
    fieldConditionsOf(edge.when).flatMap(({ condition, at }): Problem[] => {
      if (condition.op !== 'contains') return [];
      const where = { edgeId: edge.id, path: `edges[${index}].when${at}` };
      if (condition.value === undefined)
        return [{ code: 'bad_operand', severity: 'error', ...where, message: `Edge ${edge.id} asks whether the list at "${condition.path}" contains a value but names none: give "value", the item the list must hold (e.g. "expand_search_scope").` }];
      if (listAt(state, condition.path) === 'never')
        return [{ code: 'bad_operand', severity: 'error', ...where, message: `Edge ${edge.id} asks whether "${condition.path}" contains ${JSON.stringify(condition.value)}, but "${condition.path}" is never a list (what writes it, or the initial state, holds no list there): contains would never match. Use eq, or in for one of several values.` }];
      return [];
    });
