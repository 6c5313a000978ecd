import type { CallOutcome } from '../common.ts';
import type { AccessLevel as Access } from '../mcpAccess.ts';
import type { SkillBase } from '../skillBase.ts';
import type { z } from '../zod.ts';

/** What a skill contacts: the address (a URL, or a template of one) and the name of the API key it sends there. */
export interface SkillCall {
  address: string;
  keyName?: string;
}

/**
 * A skill type's schema, made of zod and the fields every skill has (`access`, `tokens`,
 * `description`), as ../skills.ts hands them where zod is: the definition itself never loads zod,
 * so the canvas can read it.
 */
export type SchemaMaker = (zod: typeof z, base: SkillBase) => z.ZodMiniType;

/** The skill a `schema` parses to: `type EchoSkill = SkillOfSchema<typeof schema>`. */
export type SkillOfSchema<Maker extends SchemaMaker> = z.output<ReturnType<Maker>>;

/**
 * Where a skill gets an API key. A key is given for one origin (the address it was typed for, or
 * the command line's `--key NAME`); the ring answers with the key or with why none is sent.
 */
export type KeyAnswer = { key: string } | { refused: string };
export type KeyRing = (name: string, origin: string) => KeyAnswer;

/** MCP's tool annotations: hints from the server, never trusted to loosen anything. */
export interface McpAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as the server lists it. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: McpAnnotations;
}

/** A `tools/call` answer, as the server sent it. */
export interface McpAnswer {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** One open connection to a server. */
export interface McpConnection {
  /** The server's tools (listed once per connection). */
  tools(): Promise<McpTool[]>;
  /** Calls a tool; throws (src/skills's McpFailure) on a timeout, a dead server or a refused request. */
  call(tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<McpAnswer>;
}

/**
 * Where MCP servers come from, by name: the command line's from `.mcp.json` (it starts stdio
 * servers on first use and stops them by PID when the run ends), the page's from the URLs the
 * person gave. Throws when the server is unknown or cannot be reached or started.
 */
export interface McpConnector {
  connect(server: string): Promise<McpConnection>;
}

/**
 * What an attempt is given, whatever its type and wherever its runner is written (a definition's
 * own `runner`, or src/skills's map): the run's services come through here, never by import, so
 * a runner written in a definition reaches keys, the network and MCP servers as the built-in ones do.
 */
export interface AttemptContext {
  /** The 1-based attempt of this call inside its action. */
  attempt: number;
  /** The state the action runs against, for `{{state.x}}` placeholders. */
  state: Readonly<Record<string, unknown>>;
  /** The run's seed, passed on to skills that accept one (llm). */
  seed: number;
  /** The per-attempt limit of the action's retry policy, if any. */
  timeoutMs?: number;
  /**
   * The run's fetch, which reaches only the hosts the person allowed (in the page, `--host`,
   * LOOPSCOPE_HOSTS); injected in tests; the global fetch when absent.
   */
  fetch?: typeof fetch;
  /** API keys by name and the origin they go to (a definition's `calls` names both); never logged, never written to a trace. */
  keys?: KeyRing;
  /** MCP servers by name, for skills that call a tool: the command line's come from `.mcp.json`, the page's from URLs the person gave. */
  mcp?: McpConnector;
}

/** What an attempt answers. */
export interface SkillResult {
  outcome: CallOutcome;
  records: unknown[];
  tokens: number;
  error?: string;
  /** Time the attempt took; simulated by mock skills so that runs replay exactly. */
  durationMs?: number;
  /** The raw text an llm answered (a mock's scripted `reply` too), for planners, deciders and judges that parse it. */
  text?: string;
}

/**
 * What a definition's `runner` makes, typed where it is written: src/skills holds it to its whole
 * `SkillRunner` (its optional `learnAccess` and `describe` name types of that layer).
 */
export interface HeldRunner {
  name: string;
  access: Access;
  call: (args: Record<string, unknown>, context: AttemptContext) => Promise<SkillResult>;
}

/** The inspector's editors of their own, for a setting no plain field edits: a mock's script, an API key (kept in memory, for the origin the skill's `calls` name), an MCP tool from its server's list. */
export type SkillEditor = 'script' | 'apiKey' | 'mcpTool';

/**
 * A setting of a skill under Skills, as data (the graph has no React): src/editor/inspector draws
 * each `type` with its field, so a type with fields of its own adds no form. `key` is the skill's
 * field the setting edits, checked against the type's schema as it is applied.
 */
export type SkillSetting<Skill = Record<string, unknown>> = { key: Extract<keyof Skill, string>; help?: string } & (
  | { type: 'text'; label: string; optional?: boolean; multiline?: boolean }
  | { type: 'number'; label: string; optional?: boolean }
  | { type: 'select'; label: string; options: readonly string[] }
  | { type: 'json'; label: string; optional?: boolean }
  | { type: 'editor'; editor: SkillEditor });

/** How the inspector edits a skill of the type, beyond the name, type, access and tokens every skill has. */
export interface SkillSettings<Skill = Record<string, unknown>> {
  /** Its settings under Skills, in order. */
  fields: readonly SkillSetting<Skill>[];
  /**
   * The fields "New skill…" asks (keys of `fields`: text, typed as text, or the script editor), the rest its defaults; false leaves the type
   * out of that form (an mcp skill is made under Skills, where its server's tools are listed).
   */
  asked: readonly Extract<keyof Skill, string>[] | false;
}

/**
 * Everything about a skill type, in one place, as a node kind's definition (../kinds/types.ts):
 * code elsewhere asks a capability (`scripted`, `calls`, `tool`…) rather than naming a type. It
 * loads no zod, so the canvas reads it on its first screen; what it holds lands there too, so a
 * part that is large or needs a layer above the graph may live beside it instead, in a map the
 * compiler holds to the registry: the schema and the settings in its `X.parts.ts` (gathered in
 * ../skills.ts's `SKILL_SCHEMAS` and ./parts.ts's `SETTINGS`), the runner in src/skills (`RUNNERS`).
 */
export interface SkillTypeDefinition<Skill = unknown, Type extends string = string> {
  type: Type;
  /**
   * Served from its own script, never contacting anything: the only type a scenario runs as it is;
   * a scenario stands every other type in by a script of its own, or refuses it (runtime/apply-scenario.ts).
   */
  scripted?: true;
  /** A new skill of the type, as the inspector adds it. */
  defaults: () => Skill;
  /**
   * What the skill contacts, read from a skill that may not have been checked (a scenario's
   * override merged over the graph's): the hosts a run asks consent for, and where its API keys go.
   */
  calls: (skill: Readonly<Record<string, unknown>>) => SkillCall[];
  /** The access its settings imply beyond what it declares: an http DELETE writes, whatever `access` says. */
  impliedAccess?: (skill: Skill) => Access;
  /** The MCP server and tool it calls: its server is started or connected before a run. */
  tool?: (skill: Skill) => { server: string; tool: string };
  /** Its schema, if not in ../skills.ts's `SKILL_SCHEMAS` (from its `X.parts.ts`). */
  schema?: (zod: typeof z, base: SkillBase) => z.ZodMiniType<Skill>;
  /** What makes the attempts of a skill of the type, if not in src/skills's `RUNNERS` (see HeldRunner). */
  runner?: (name: string, skill: Skill) => HeldRunner;
  /** Its settings in the inspector, if not in ./parts.ts's `SETTINGS` (from its `X.parts.ts`); none: the type has no fields of its own, and "New skill…" asks nothing more. */
  settings?: SkillSettings<Skill>;
}

/** The parts a definition may hold itself, else the map of the layer that builds them, or its `X.parts.ts` (./parts.ts). */
export type SkillTypePart = 'schema' | 'runner' | 'settings';

/** The parts of a definition kept beside it, in its `X.parts.ts`, off the first screen. */
export type SkillParts<Skill> = Partial<Pick<SkillTypeDefinition<Skill>, 'settings'>>;

/**
 * A skill type's definition, its functions reading a skill of type `Skill`: `defineSkillType<GrpcSkill>()({ type: 'grpc', … })`.
 * Its type says which parts it holds, so that the maps of those parts cover exactly the types that do not.
 */
export const defineSkillType =
  <Skill>() =>
  <const Type extends string, const Given extends SkillTypeDefinition<Skill, Type>>(definition: Given & SkillTypeDefinition<Skill, Type>) =>
    definition as Omit<SkillTypeDefinition<Skill, Type>, keyof Given & SkillTypePart> & Pick<Given, keyof Given & SkillTypePart>;
