import { RETRIABLE_OUTCOMES } from '../common.ts';

/** The icon a kind is drawn with, by name; the screen draws it as SVG (no emoji: not every machine has their font). */
export const KIND_ICONS = ['brain', 'inbox', 'zap', 'search-check', 'life-buoy', 'hand', 'message-square-text', 'octagon-x'] as const;
export type KindIconName = (typeof KIND_ICONS)[number];

/** The list editors the inspector has for a `json` field's value, shown before its JSON text. */
export type InspectorListEditor = 'plans' | 'recoveryRules';

/**
 * A form field of the inspector, described as data so that the graph layer stays free of React.
 * `json` fields edit a nested value as JSON text, validated against `schema` of the kind's config;
 * with `list`, that list editor comes first and the JSON text stays as a fallback.
 */
export type InspectorField =
  | { key: string; label: string; type: 'number'; min?: number; max?: number; optional?: boolean; help?: string }
  | { key: string; label: string; type: 'text'; optional?: boolean; help?: string }
  | { key: string; label: string; type: 'select'; options: readonly string[]; optional?: boolean; help?: string }
  | { key: string; label: string; type: 'multiselect'; options: readonly string[]; help?: string }
  /** `replies`: the skill's answer is read as a model's reply (a judge, an llm planner), so a mock of it scripts one. */
  | { key: string; label: string; type: 'skill'; optional?: boolean; help?: string; replies?: boolean }
  | { key: string; label: string; type: 'skills'; help?: string }
  | { key: string; label: string; type: 'json'; optional?: boolean; help?: string; list?: InspectorListEditor };

/** How Mermaid draws the kind: a box, a stadium (ends the run) or a rhombus (decides). */
export type MermaidShape = 'box' | 'stadium' | 'rhombus';

/**
 * Everything about a node kind, in one place (Rivet's node registry): the kind list, skill
 * references, inspector fields, the Mermaid shape and the state it writes are derived from these,
 * and code elsewhere asks for a capability (`interruptsBefore`, `finalResponse`…) rather than
 * naming a kind. It holds no schema, so that the first screen draws nodes without zod: the kind's
 * config and state schemas are in the module beside it (`act.ts` → `act.schema.ts`), gathered in
 * `KIND_SCHEMAS` (./schemas.ts), and `Config` is the type of its config schema. Its executor sits
 * in src/runtime/kinds, in a map the compiler checks against the registry, and what only
 * validation reads in kinds/validation.ts.
 */
export interface KindDefinition<Config = unknown, Kind extends string = string, Writes extends readonly string[] = readonly string[]> {
  kind: Kind;
  /** The palette name; also the accessible name tests use (SPEC §5). */
  title: string;
  /** The name the seed articles use. */
  seedName: string;
  description: string;
  color: string;
  icon: KindIconName;
  /** The outcomes the node reports; each gets a source handle. Empty for terminal kinds. */
  outcomes: readonly string[];
  /** Respond and stop end the run. */
  terminal: boolean;
  /**
   * The state field groups the node owns and alone may write (context isolation); the kind's
   * schemas give each its shape (`state`), against which a person's edit of the state (a fork) is
   * checked before anything runs.
   */
  writes: Writes;
  /**
   * The kind only reads (seed 003: COLLECT 只读数据): a write or exec skill in it is the validation
   * error `collect_writes`, and the runtime refuses it before the call, whatever the permission mode.
   */
  readsOnly?: boolean;
  /** State fields the node reads, recorded in each trace step. */
  reads: readonly string[];
  /**
   * What the node cannot do its work without, as groups of alternatives: one field of each group
   * must be written by a node on some path into it (or be in the initial state), or validation
   * warns `unwritten_read`. Absent: it needs nothing (its reads are only looked at when there).
   */
  needs?: (config: Config) => readonly (readonly string[])[];
  fields: readonly InspectorField[];
  /** The key settings shown on the node at a glance. */
  summary: (config: Config) => string[];
  /** Every skill the node's config names, with where (validation checks each exists and may run). */
  skillRefs: (config: Config) => SkillReference[];
  /**
   * The skills the node can put in the plan a node that needs `plan` runs (a Reason's scripted
   * plans, a Recover rule's switch), and the field where a person chooses them: the Act's inspector
   * leads there.
   */
  planSkills?: { field: string; skills: (config: Config) => string[] };
  /** The outcomes of a node with this config, when they depend on it (an inner loop adds `max_iter`). */
  outcomesFor?: (config: Config) => readonly string[];
  mermaid: MermaidShape;
  /**
   * A person answers (approved or denied) before a node of this kind runs: an interactive run
   * interrupts before it, here and on a LangGraph server. Its config may hold the question and
   * the answers given in advance (`AskedConfig`); a scenario's `decisions` pin those answers.
   */
  interruptsBefore?: true;
  /** It may be the graph's `finally` node: run once after a stop, it writes the final response. */
  finalResponse?: true;
  /** A step of a LangGraph node Loopscope did not make (a foreign graph's) is recorded as this kind. */
  foreignSteps?: true;
  /**
   * It judges the evidence (the article's evaluation): under `limits.onBudget: "evaluate"` it still
   * runs once the budget is spent, unless its judging needs a call (`calls`: the skill it would ask).
   */
  evaluates?: (config: Config) => { calls: string | null };
}

/** What a person answers a node that `interruptsBefore` it. */
export type Decision = 'approved' | 'denied';

/** The config of a kind that `interruptsBefore`: the question, and the answers given in advance, one a visit. */
export interface AskedConfig {
  prompt?: string;
  answers?: readonly Decision[];
}

export interface SkillReference {
  skill: string;
  /** The path inside the node, e.g. `config.loop.tools[0]`. */
  where: string;
}

/**
 * A kind's definition, its functions reading a config of type `Config` (the type of the kind's
 * config schema): `defineKind<EchoConfig>()({ kind: 'echo', … })`.
 */
export const defineKind = <Config>() => <const Kind extends string, const Writes extends readonly string[]>(definition: KindDefinition<Config, Kind, Writes>) => definition;

/** The inspector's fields of a node's local retry (`config.retry`). */
export const RETRY_FIELDS: readonly InspectorField[] = [
  { key: 'retry.maxAttempts', label: 'Max attempts', type: 'number', min: 1, max: 100 },
  { key: 'retry.retryOn', label: 'Retry on', type: 'multiselect', options: RETRIABLE_OUTCOMES },
];
