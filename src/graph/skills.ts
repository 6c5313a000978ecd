import { z } from './zod.ts';
import { FORBIDDEN_KEYS } from './common.ts';
import { CallOutcome } from './commonSchemas.ts';
import { hasPlainHost } from './hosts.ts';
import { LIMITS } from './limits.ts';
import { SKILL_TYPE_NAMES, skillTypeDefinition, type DefinitionOf, type SchemaMaker, type SkillOf, type SkillType } from './skillTypes/index.ts';
import { partsOf, type TypesWith } from './skillTypes/parts.ts';
import { HTTP_METHODS } from './skillTypes/http.ts';

/**
 * The name of an environment variable, as POSIX shells and dotenv files take it: what an llm
 * skill's \`apiKeyName\` and the command line's \`--key\` hold. Nothing else can be a line of its own
 * in an exported project's .env.example, or a shell's code.
 */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

import { ACCESS_LEVELS } from './mcpAccess.ts';

export { ACCESS_LEVELS };
export const Access = z.enum(ACCESS_LEVELS);
export type Access = z.infer<typeof Access>;

export const MockEntry = z.strictObject({
  outcome: CallOutcome,
  records: z.optional(z.array(z.unknown()).check(z.maxLength(LIMITS.records))),
  tokens: z.optional(z.int().check(z.gte(0))),
  error: z.optional(z.string()),
  delayMs: z.optional(z.int().check(z.gte(0))),
  /**
   * What an llm answered, as text or as JSON (written out as text): a planner, a decider or a judge
   * reads it exactly as it reads a real model's answer, and "Save as scenario" writes it back here.
   */
  reply: z.optional(z.unknown()),
});
export type MockEntry = z.infer<typeof MockEntry>;

/**
 * An http(s) URL as a file may give it for a service: what \`new URL\` reads, with nothing it would
 * quietly drop or change on the way (it removes tabs and newlines, and trims spaces), so the address
 * a person sees is the one that is contacted and the one an export writes; and a plain host
 * (hasPlainHost), so that its origin is one entry of an export's LOOPSCOPE_KEYS, never two.
 */
export const isHttpUrl = (text: string): boolean => {
  if (/[\s\p{Cc}\p{Cf}]/u.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && hasPlainHost(url);
  } catch {
    return false;
  }
};

const skillBase = {
  access: z._default(Access, 'read'),
  /** The default token cost of each attempt. */
  tokens: z.optional(z.int().check(z.gte(0))),
  description: z.optional(z.string()),
};
/** The fields every skill has, as a definition's `schema` is handed them. */
export type SkillBase = typeof skillBase;

export const MockSkill = z.strictObject({
  type: z.literal('mock'),
  ...skillBase,
  /** One entry per attempt, the last repeating. */
  script: z.array(MockEntry).check(z.minLength(1, 'a mock skill needs at least one script entry'), z.maxLength(LIMITS.scriptEntries)),
});

export { HTTP_METHODS };

export const HttpSkill = z.strictObject({
  type: z.literal('http'),
  ...skillBase,
  url: z.string().check(z.minLength(1)),
  method: z._default(z.enum(HTTP_METHODS), 'GET'),
  headers: z.optional(z.record(z.string(), z.string())),
  body: z.optional(z.string()),
  timeoutMs: z._default(z.int().check(z.gte(1)), 10000),
  recordsPath: z.optional(z.string()),
});

export const LlmSkill = z.strictObject({
  type: z.literal('llm'),
  ...skillBase,
  baseUrl: z.string().check(z.refine(isHttpUrl, 'expected an http(s) URL such as http://localhost:11434/v1, without spaces or control characters, whose host is a name (letters, digits, ".", "-", "_") or an IP address')),
  model: z.string().check(z.minLength(1)),
  /** The name of the key (an environment variable's name); the key itself never lives in the file. */
  apiKeyName: z.optional(z.string().check(
    z.regex(ENV_NAME, 'an API key name is the name of an environment variable: letters, digits and _, not starting with a digit'),
    // As for ids: a dotenv file cannot even set `__proto__` (its parser assigns it to an object).
    z.refine((name) => !FORBIDDEN_KEYS.has(name), 'this name is reserved (__proto__, constructor and prototype cannot be key names)'),
  )),
  temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
  timeoutMs: z._default(z.int().check(z.gte(1)), 60000),
  /**
   * As a decider, use the endpoint's native tool calling: the loop's tools go in the request's
   * `tools`, and a `tool_calls` answer is the reply `{"tool", "args"}`.
   */
  toolCalls: z.optional(z.boolean()),
});

/**
 * One tool of an MCP server. `server` is a name: the servers themselves (a program to start, a URL)
 * are the person's, in their project's `.mcp.json` (./mcpServers.ts), never in a graph file, so a
 * graph someone sends cannot start a program or reach a server the person did not set up. The
 * access a call needs comes from the tool's annotations at run time; `access` may only make it
 * stricter (`exec` for a shell-like tool), so its default `read` adds nothing.
 */
export const McpSkill = z.strictObject({
  type: z.literal('mcp'),
  ...skillBase,
  server: z.string().check(z.minLength(1, 'name a server of the project\'s .mcp.json')),
  tool: z.string().check(z.minLength(1, 'name one of the server\'s tools')),
  timeoutMs: z._default(z.int().check(z.gte(1)), 30000),
});

export type MockSkill = z.infer<typeof MockSkill>;
export type HttpSkill = z.infer<typeof HttpSkill>;
export type LlmSkill = z.infer<typeof LlmSkill>;
export type McpSkill = z.infer<typeof McpSkill>;

/** The schemas of the types whose definition holds none (./skillTypes): a type with neither, or whose schema does not parse to the skill its definition reads, does not compile. */
const SCHEMAS_HERE = { mock: MockSkill, http: HttpSkill, llm: LlmSkill, mcp: McpSkill } satisfies { [T in Exclude<SkillType, TypesWith<'schema'>>]: z.ZodMiniType<SkillOf<T>> };
const schemasHeld: Partial<Record<SkillType, SchemaMaker>> = partsOf('schema');

/** Every registered skill type's schema, in the registry's order: its definition's, built here where zod is, or the one above. */
export const SKILL_SCHEMAS = Object.fromEntries(SKILL_TYPE_NAMES.map((type) => [type, schemasHeld[type]?.(z, skillBase) ?? SCHEMAS_HERE[type as keyof typeof SCHEMAS_HERE]])) as
  Omit<typeof SCHEMAS_HERE, TypesWith<'schema'>> & { [T in TypesWith<'schema'>]: ReturnType<DefinitionOf<T>['schema']> };

/** The registered types whose skills have fields of their own (beyond `type` and SkillBase's): those have settings (./skillTypes/parts.ts). */
export type TypesWithOwnFields = { [T in SkillType]: [Exclude<keyof SkillOf<T>, 'type' | keyof SkillBase>] extends [never] ? never : T }[SkillType];

type SkillSchemas = (typeof SKILL_SCHEMAS)[SkillType];
export const Skill = z.discriminatedUnion('type', SKILL_TYPE_NAMES.map((type) => SKILL_SCHEMAS[type]) as unknown as [SkillSchemas, ...SkillSchemas[]]);
export type Skill = z.infer<typeof Skill>;

/**
 * The access a skill needs: what it declares, and at least what its settings imply (an http
 * skill's method), so that `"method": "DELETE", "access": "read"` does not pass a read-only check.
 */
export const effectiveAccess = (skill: Skill): Access => {
  const implied = skillTypeDefinition(skill.type).impliedAccess?.(skill as never);
  return implied !== undefined && ACCESS_LEVELS.indexOf(implied) > ACCESS_LEVELS.indexOf(skill.access) ? implied : skill.access;
};
