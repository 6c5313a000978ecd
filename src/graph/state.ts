/**
 * The run's state as a typed schema: the runtime's own fields and each node kind's field group
 * (from the kind definitions). A run writes these itself; the schema is checked where a person
 * writes them, when they edit the state of a step to fork from it.
 */
import { z } from './zod.ts';
import { FORBIDDEN_KEYS } from './common.ts';
import { KIND_LIST, kindDefinition } from './kinds/index.ts';
import { kindSchemas } from './kinds/schemas.ts';
import { parseWith } from './parse.ts';
import { formatPath, type ParseProblem, type ParseResult } from './problems.ts';
import type { NodeKind } from './kinds/index.ts';
import type { GraphFile } from './schema.ts';

/** The fields the runtime itself keeps (SPEC §1, State). */
export const RUNTIME_STATE = {
  round: z.int().check(z.gte(1)),
  steps: z.int().check(z.gte(0)),
  tokensUsed: z.number().check(z.gte(0)),
} as const;

/** Fields the runtime itself keeps in the state. */
export const RUNTIME_FIELDS = Object.keys(RUNTIME_STATE) as readonly (keyof typeof RUNTIME_STATE)[];

/** The keys of an object schema (or a nullable one); none for other shapes. */
const objectKeys = (schema: z.ZodMiniType): readonly string[] => {
  const def = schema._zod.def;
  const inner = def.type === 'nullable' ? (def as z.core.$ZodNullableDef).innerType : schema;
  const innerDef = inner._zod.def;
  return innerDef.type === 'object' ? Object.keys((innerDef as z.core.$ZodObjectDef).shape) : [];
};

let fieldShapes: Record<string, readonly string[]> | null = null;

/**
 * The known inner fields of each node-owned field group, from the kinds' state schemas, for path
 * checks and suggestions, read from the schemas once.
 */
export const fieldShapesOf = (): Readonly<Record<string, readonly string[]>> =>
  (fieldShapes ??= Object.fromEntries(
    KIND_LIST.flatMap((kind) => Object.entries(kindSchemas(kind.kind).state)).flatMap(([field, schema]) => {
      const keys = objectKeys(schema);
      return keys.length > 0 ? [[field, keys]] : [];
    }),
  ));

/** Every field path a condition may read in this graph: runtime fields, initial state, and what its nodes write. */
export const knownPaths = (graph: GraphFile): string[] => {
  const groups = new Set<string>([...RUNTIME_FIELDS, ...Object.keys(graph.state)]);
  for (const node of graph.nodes) for (const field of kindDefinition(node.kind).writes) groups.add(field);
  // Own keys only: a state field named like an Object method (`toString`) has no known shape.
  const shapes = fieldShapesOf();
  const shapeOf = (group: string) => (Object.hasOwn(shapes, group) ? shapes[group] : []);
  return [...groups].flatMap((group) => [group, ...shapeOf(group).map((inner) => `${group}.${inner}`)]);
};

/** Every typed field of the state: the runtime's and each kind's field groups. */
export const STATE_FIELDS: Readonly<Record<string, z.ZodMiniType>> = Object.freeze({
  ...RUNTIME_STATE,
  ...Object.fromEntries(KIND_LIST.flatMap((kind) => Object.entries(kindSchemas(kind.kind).state))),
});

/**
 * Channels the runtime keeps beside the state (visits, script positions, the step record…): a
 * state field of the same name would be shadowed, so neither a graph nor an edit may use them.
 */
export const RESERVED_STATE_KEYS = ['_run', '_step'] as const;

/**
 * Why a run's state cannot have a field of this name (a run could not start), or null: a channel
 * the runtime keeps beside the state, or a name every JavaScript object has (`toString`,
 * `hasOwnProperty`, `__proto__`…), which LangGraph cannot have as a channel: it keeps channels in
 * plain objects and finds the inherited member under that name instead.
 */
export const stateKeyRefusal = (key: string): string | null => {
  if ((RESERVED_STATE_KEYS as readonly string[]).includes(key)) return `the state field "${key}" is kept by the runtime beside the state (its ledger)`;
  if (key in Object.prototype) return `the state field "${key}" is named like a member every JavaScript object has, which LangGraph cannot keep as a field`;
  return null;
};

/** What of a graph decides its state's fields. */
interface StateShape {
  state: Record<string, unknown>;
  nodes: readonly { kind: NodeKind }[];
}

/** The fields a run of this graph has: its initial state, the runtime's, and those of the kinds it uses. */
export const stateFieldsOf = (graph: StateShape): string[] => {
  const kinds = new Set(graph.nodes.map((node) => node.kind));
  return [...new Set([...Object.keys(graph.state), ...Object.keys(RUNTIME_STATE), ...KIND_LIST.filter((kind) => kinds.has(kind.kind)).flatMap((kind) => kind.writes)])];
};

/**
 * A person's edit of state fields, checked field by field: typed fields against their schema,
 * the graph's own fields (the initial state) as any JSON, and, given the graph, only fields its
 * run has. Problems name the path that failed.
 */
export const parseStateEdit = (edit: Record<string, unknown>, graph?: StateShape): ParseResult<Record<string, unknown>> => {
  const problems: ParseProblem[] = [];
  const fields = graph && stateFieldsOf(graph);
  for (const [key, value] of Object.entries(edit)) {
    if ((RESERVED_STATE_KEYS as readonly string[]).includes(key) || FORBIDDEN_KEYS.has(key)) {
      problems.push({ path: formatPath([key]), message: `"${key}" is kept by the runtime and cannot be edited` });
      continue;
    }
    if (fields && !fields.includes(key)) {
      problems.push({ path: formatPath([key]), message: `this graph's state has no field "${key}" (it has ${fields.join(', ')})` });
      continue;
    }
    const schema = Object.hasOwn(STATE_FIELDS, key) ? STATE_FIELDS[key] : undefined;
    if (value === undefined) problems.push({ path: formatPath([key]), message: 'expected a value' });
    else if (schema) {
      const parsed = parseWith(schema, value, [key]);
      if (!parsed.ok) problems.push(...parsed.problems);
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: edit };
};
