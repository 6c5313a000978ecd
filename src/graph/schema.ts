import { z } from 'zod';
import { Id, Position } from './common.ts';
import { KINDS, NODE_KINDS, type NodeKind } from './kinds/index.ts';
import { LIMITS } from './limits.ts';
import { Skill } from './skills.ts';
import { When, whenDepth } from './when.ts';

export const GRAPH_FORMAT = 'loopscope/graph';
export const CURRENT_VERSION = 1;

const nodeSchema = <K extends NodeKind, C extends z.ZodType>(kind: K, config: C) =>
  z.strictObject({
    id: Id,
    kind: z.literal(kind),
    label: z.string().optional(),
    description: z.string().optional(),
    position: Position.default({ x: 0, y: 0 }),
    // prefault, not default: zod 4 returns a default as is, and a node without config needs its kind's defaults.
    config: config.prefault({} as never),
  });

/** The node schema of each registered kind: the union below is derived, never listed. */
type NodeSchemas = {
  [K in NodeKind]: (typeof KINDS)[K]['config'] extends infer Config extends z.ZodType ? ReturnType<typeof nodeSchema<K, Config>> : never;
}[NodeKind];

export const GraphNode = z.discriminatedUnion(
  'kind',
  NODE_KINDS.map((kind) => nodeSchema(kind, KINDS[kind].config)) as unknown as [NodeSchemas, ...NodeSchemas[]],
);
export type GraphNode = z.infer<typeof GraphNode>;
export type NodeOfKind<K extends NodeKind> = Extract<GraphNode, { kind: K }>;

export const GraphEdge = z
  .strictObject({
    id: Id,
    source: Id,
    target: Id,
    when: When.optional(),
    label: z.string().optional(),
  })
  .check((context) => {
    if (whenDepth(context.value.when) > LIMITS.conditionDepth)
      context.issues.push({ code: 'custom', input: context.value.when, path: ['when'], message: `conditions nest at most ${LIMITS.conditionDepth} levels deep (all, any, not)` });
  });
export type GraphEdge = z.infer<typeof GraphEdge>;

export const Limits = z.strictObject({
  maxRounds: z.int().min(1).max(LIMITS.maxRounds).default(5),
  maxSteps: z.int().min(1).max(LIMITS.maxSteps).default(50),
  tokenBudget: z.int().min(0).optional(),
});
export type Limits = z.infer<typeof Limits>;

export const PERMISSION_MODES = ['read-only', 'workspace', 'full'] as const;
export const Permissions = z.strictObject({ mode: z.enum(PERMISSION_MODES).default('read-only') });
export type PermissionMode = (typeof PERMISSION_MODES)[number];

const StateObject = z.record(z.string(), z.unknown());

/** A token count pinned exactly, or a range (either end may be left open). */
export const TokenExpectation = z.union([
  z.int().min(0),
  z
    .strictObject({ min: z.int().min(0).optional(), max: z.int().min(0).optional() })
    .refine((range) => range.min !== undefined || range.max !== undefined, 'a range needs "min", "max" or both')
    .refine((range) => range.min === undefined || range.max === undefined || range.min <= range.max, '"min" must not be above "max"'),
], { error: 'expected a number of tokens, or a range {"min": N, "max": N}' });
export type TokenExpectation = z.infer<typeof TokenExpectation>;

/** What a scenario's run must show (SPEC §4); every field is optional and checked only when present. */
export const ScenarioExpect = z.strictObject({
  stopReason: z.string().optional(),
  rounds: z.int().min(0).optional(),
  steps: z.int().min(0).optional(),
  tokensUsed: TokenExpectation.optional(),
  attempts: z.record(Id, z.int().min(0)).optional(),
  visits: z.record(Id, z.int().min(0)).optional(),
  /** The nodes executed, in order, exactly. */
  path: z.array(Id).optional(),
  /** These nodes in this order, with anything between them. */
  pathIncludes: z.array(Id).optional(),
  /** Edge ids that must fire at least once. */
  fired: z.array(Id).optional(),
  /** Edge ids that must never fire. */
  notFired: z.array(Id).optional(),
  /** Each `path` must hold `value` in the final state. */
  state: z.array(z.strictObject({ path: z.string(), value: z.unknown() })).optional(),
});
export type ScenarioExpect = z.infer<typeof ScenarioExpect>;

export const Scenario = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  seed: z.int().optional(),
  /** Merged over the graph's skills: a partial skill keeps the graph's other settings. */
  skills: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  state: StateObject.optional(),
  /** A person's answers at each approve node, in the order it ran; the run takes them instead of asking. */
  decisions: z.record(Id, z.array(z.enum(['approved', 'denied'])).min(1).max(1000)).optional(),
  expect: ScenarioExpect,
});
export type Scenario = z.infer<typeof Scenario>;

export const GraphFile = z.strictObject({
  format: z.literal(GRAPH_FORMAT),
  version: z.literal(CURRENT_VERSION),
  name: z.string().min(1),
  description: z.string().optional(),
  /** Empty while the graph has no entry (its entry node was deleted). */
  entry: z.union([Id, z.literal('')]),
  /** A respond node run once after a stop other than completed, user_stopped or error (seed 000: a final response on every stop). */
  finally: Id.optional(),
  limits: Limits.default({ maxRounds: 5, maxSteps: 50 }),
  permissions: Permissions.default({ mode: 'read-only' }),
  state: StateObject.default({}),
  skills: z.record(Id, Skill).default({}),
  nodes: z.array(GraphNode).max(LIMITS.nodes),
  edges: z.array(GraphEdge).max(LIMITS.edges).default([]),
  scenarios: z.array(Scenario).max(LIMITS.scenarios).default([]),
});
export type GraphFile = z.infer<typeof GraphFile>;
/** What a person may write: every defaulted field optional. */
export type GraphFileInput = z.input<typeof GraphFile>;
