import { z } from './zod.ts';
import { Id, Position } from './commonSchemas.ts';
import { NODE_KINDS, type NodeKind } from './kinds/index.ts';
import { KIND_SCHEMAS } from './kinds/schemas.ts';
import { BUDGET_ENDINGS } from './budget.ts';
import { LIMITS } from './limits.ts';
import { LlmSkill, Skill } from './skills.ts';
import { When, whenDepth } from './when.ts';

export const GRAPH_FORMAT = 'loopscope/graph';
export const CURRENT_VERSION = 1;

const nodeSchema = <K extends NodeKind, C extends z.ZodMiniType>(kind: K, config: C) =>
  z.strictObject({
    id: Id,
    kind: z.literal(kind),
    label: z.optional(z.string()),
    description: z.optional(z.string()),
    position: z._default(Position, { x: 0, y: 0 }),
    // prefault, not default: zod 4 returns a default as is, and a node without config needs its kind's defaults.
    config: z.prefault(config, {} as never),
  });

/** The node schema of each registered kind: the union below is derived, never listed. */
type NodeSchemas = {
  [K in NodeKind]: (typeof KIND_SCHEMAS)[K]['config'] extends infer Config extends z.ZodMiniType ? ReturnType<typeof nodeSchema<K, Config>> : never;
}[NodeKind];

export const GraphNode = z.discriminatedUnion(
  'kind',
  NODE_KINDS.map((kind) => nodeSchema(kind, KIND_SCHEMAS[kind].config)) as unknown as [NodeSchemas, ...NodeSchemas[]],
);
export type GraphNode = z.infer<typeof GraphNode>;
export type NodeOfKind<K extends NodeKind> = Extract<GraphNode, { kind: K }>;

export const GraphEdge = z
  .strictObject({
    id: Id,
    source: Id,
    target: Id,
    when: z.optional(When),
    label: z.optional(z.string()),
  })
  .check((context) => {
    if (whenDepth(context.value.when) > LIMITS.conditionDepth)
      context.issues.push({ code: 'custom', input: context.value.when, path: ['when'], message: `conditions nest at most ${LIMITS.conditionDepth} levels deep (all, any, not)` });
  });
export type GraphEdge = z.infer<typeof GraphEdge>;

export const Limits = z.strictObject({
  maxRounds: z._default(z.int().check(z.gte(1), z.lte(LIMITS.maxRounds)), 5),
  maxSteps: z._default(z.int().check(z.gte(1), z.lte(LIMITS.maxSteps)), 50),
  tokenBudget: z.optional(z.int().check(z.gte(0))),
  /** What a spent budget does; absent: `stop` (BUDGET_ENDINGS). */
  onBudget: z.optional(z.enum(BUDGET_ENDINGS)),
});
export type Limits = z.infer<typeof Limits>;

export const PERMISSION_MODES = ['read-only', 'workspace', 'full'] as const;
export const Permissions = z.strictObject({ mode: z._default(z.enum(PERMISSION_MODES), 'read-only') });
export type PermissionMode = (typeof PERMISSION_MODES)[number];

const StateObject = z.record(z.string(), z.unknown());

/** A token count pinned exactly, or a range (either end may be left open). */
export const TokenExpectation = z.union([
  z.int().check(z.gte(0)),
  z
    .strictObject({ min: z.optional(z.int().check(z.gte(0))), max: z.optional(z.int().check(z.gte(0))) })
    .check(
      z.refine((range) => range.min !== undefined || range.max !== undefined, 'a range needs "min", "max" or both'),
      z.refine((range) => range.min === undefined || range.max === undefined || range.min <= range.max, '"min" must not be above "max"'),
    ),
], { error: 'expected a number of tokens, or a range {"min": N, "max": N}' });
export type TokenExpectation = z.infer<typeof TokenExpectation>;

/** What a scenario's run must show (SPEC §4); every field is optional and checked only when present. */
export const ScenarioExpect = z.strictObject({
  stopReason: z.optional(z.string()),
  rounds: z.optional(z.int().check(z.gte(0))),
  steps: z.optional(z.int().check(z.gte(0))),
  tokensUsed: z.optional(TokenExpectation),
  attempts: z.optional(z.record(Id, z.int().check(z.gte(0)))),
  visits: z.optional(z.record(Id, z.int().check(z.gte(0)))),
  /** The nodes executed, in order, exactly. */
  path: z.optional(z.array(Id)),
  /** These nodes in this order, with anything between them. */
  pathIncludes: z.optional(z.array(Id)),
  /** Edge ids that must fire at least once. */
  fired: z.optional(z.array(Id)),
  /** Edge ids that must never fire. */
  notFired: z.optional(z.array(Id)),
  /** Each `path` must hold `value` in the final state. */
  state: z.optional(z.array(z.strictObject({ path: z.string(), value: z.unknown() }))),
});
export type ScenarioExpect = z.infer<typeof ScenarioExpect>;

/** What the run a scenario was saved from did: read only to tell why a later run parts from it, never an expectation. */
export const SavedRun = z.strictObject({
  /** Each executed step: its node, its outcome, the edge it took and the attempts it made. */
  steps: z.array(z.strictObject({ node: Id, outcome: z.optional(z.string()), edge: z.optional(Id), attempts: z.optional(z.int().check(z.gte(0))) })).check(z.maxLength(LIMITS.maxSteps)),
  tokensUsed: z.optional(z.int().check(z.gte(0))),
  /** The rounds it ran: against a lower Max rounds. */
  rounds: z.optional(z.int().check(z.gte(0))),
  /**
   * The graph's settings as it ran (src/graph/settings.ts), to name the change that made a run part
   * from it; since issue 53, with each skill as the run had it (the graph's, under the scenario's own).
   */
  settings: z.optional(z.record(z.string(), z.unknown())),
});
export type SavedRun = z.infer<typeof SavedRun>;

export const Scenario = z.strictObject({
  name: z.string().check(z.minLength(1)),
  description: z.optional(z.string()),
  seed: z.optional(z.int()),
  /**
   * Merged over the graph's skills: a partial skill keeps the graph's other settings. Where to send
   * and which key to read are checked here as in a skill: a host is announced, and a key name
   * written out, before any scenario runs.
   */
  skills: z.optional(z.record(z.string(), z.catchall(z.partial(z.pick(LlmSkill, { baseUrl: true, apiKeyName: true })), z.unknown()))),
  state: z.optional(StateObject),
  /** A person's answers at each approve node, in the order it ran; the run takes them instead of asking. */
  decisions: z.optional(z.record(Id, z.array(z.enum(['approved', 'denied'])).check(z.minLength(1), z.maxLength(1000)))),
  expect: ScenarioExpect,
  savedFrom: z.optional(SavedRun),
});
export type Scenario = z.infer<typeof Scenario>;

export const GraphFile = z.strictObject({
  format: z.literal(GRAPH_FORMAT),
  version: z.literal(CURRENT_VERSION),
  name: z.string().check(z.minLength(1)),
  description: z.optional(z.string()),
  /** Empty while the graph has no entry (its entry node was deleted). */
  entry: z.union([Id, z.literal('')]),
  /** A respond node run once after a stop other than completed, user_stopped or error (seed 000: a final response on every stop). */
  finally: z.optional(Id),
  limits: z._default(Limits, { maxRounds: 5, maxSteps: 50 }),
  permissions: z._default(Permissions, { mode: 'read-only' }),
  state: z._default(StateObject, {}),
  skills: z._default(z.record(Id, Skill), {}),
  nodes: z.array(GraphNode).check(z.maxLength(LIMITS.nodes)),
  edges: z._default(z.array(GraphEdge).check(z.maxLength(LIMITS.edges)), []),
  scenarios: z._default(z.array(Scenario).check(z.maxLength(LIMITS.scenarios)), []),
});
export type GraphFile = z.infer<typeof GraphFile>;
/** What a person may write: every defaulted field optional. */
export type GraphFileInput = z.input<typeof GraphFile>;
