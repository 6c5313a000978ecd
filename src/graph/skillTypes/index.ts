import { http } from './http.ts';
import { llm } from './llm.ts';
import { mcp } from './mcp.ts';
import { mock } from './mock.ts';
import type { SkillCall, SkillTypeDefinition } from './types.ts';

export * from './types.ts';

/** The one place skill types are registered, in the inspector's order; everything else about a type derives from here. */
export const SKILL_TYPES = { mock, http, llm, mcp } as const;

/** A type's key must be the type it defines: `{ http: llm }` does not compile. */
const registered: { [T in keyof typeof SKILL_TYPES]: { type: T } } = SKILL_TYPES;

export type SkillType = keyof typeof SKILL_TYPES;
export const SKILL_TYPE_NAMES = Object.keys(registered) as [SkillType, ...SkillType[]];

/** A registered type's definition, as written. */
export type DefinitionOf<T extends SkillType> = (typeof SKILL_TYPES)[T];

/** The skill a registered type's definition reads (its schema's output must be that: ../skills.ts, `SKILL_SCHEMAS`). */
export type SkillOf<T extends SkillType> = DefinitionOf<T> extends SkillTypeDefinition<infer Skill, T> ? Skill : never;

/** Any registered type's definition, its skill loosely typed. */
export type AnySkillTypeDefinition = SkillTypeDefinition<never, SkillType> & Pick<SkillTypeDefinition, 'defaults'>;

/** The definition of a skill's type (`skill.type`). */
export const skillTypeDefinition = (type: SkillType): AnySkillTypeDefinition => SKILL_TYPES[type] as unknown as AnySkillTypeDefinition;

/** What a skill of any type contacts (SkillTypeDefinition.calls); nothing for a type this build does not know. */
export const callsOfSkill = (skill: Readonly<Record<string, unknown>>): SkillCall[] =>
  typeof skill.type === 'string' && Object.hasOwn(SKILL_TYPES, skill.type) ? skillTypeDefinition(skill.type as SkillType).calls(skill) : [];

/** The MCP server and tool a skill calls, for a type that calls one (SkillTypeDefinition.tool). */
export const toolOfSkill = (skill: { type: SkillType }): { server: string; tool: string } | null => skillTypeDefinition(skill.type).tool?.(skill as never) ?? null;

/** Whether a skill is served from its own script (a mock), never contacting anything. */
export const isScripted = (skill: { type: SkillType }): boolean => skillTypeDefinition(skill.type).scripted === true;

/**
 * The type a scenario or a saved scenario stands a real skill in by (a script of its own), and that
 * a run serves from the ledger's script positions: the scripted one.
 */
export const STAND_IN_TYPE = mock.type;
