import { z } from './zod.ts';
import { ACCESS_LEVELS } from './mcpAccess.ts';
import { skillBase, type Access, type SkillBase } from './skillBase.ts';
import { HttpSkill } from './skillTypes/http.parts.ts';
import { SKILL_TYPE_NAMES, skillTypeDefinition, type DefinitionOf, type SchemaMaker, type SkillOf, type SkillType } from './skillTypes/index.ts';
import { LlmSkill } from './skillTypes/llm.parts.ts';
import { McpSkill } from './skillTypes/mcp.parts.ts';
import { MockSkill } from './skillTypes/mock.parts.ts';
import { partsOf, type TypesWith } from './skillTypes/parts.ts';

// Each built-in type's schema is beside its definition (./skillTypes/X.parts.ts); the format's modules take them from here.
export { ACCESS_LEVELS };
export { Access, type SkillBase } from './skillBase.ts';
export { HTTP_METHODS, HttpSkill } from './skillTypes/http.parts.ts';
export { ENV_NAME, isHttpUrl, LlmSkill } from './skillTypes/llm.parts.ts';
export { McpSkill } from './skillTypes/mcp.parts.ts';
export { MockEntry, MockSkill } from './skillTypes/mock.parts.ts';

/** The schemas of the types whose definition holds none (./skillTypes/X.parts.ts): a type with neither, or whose schema does not parse to the skill its definition reads, does not compile. */
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
