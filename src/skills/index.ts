import type { Skill } from '../graph/skills.ts';
import type { SkillOf, SkillType } from '../graph/skillTypes/index.ts';
import { partsOf, type TypesWith } from '../graph/skillTypes/parts.ts';
import { createHttpSkill } from './http.ts';
import { createLlmSkill } from './llm.ts';
import { createMcpSkill } from './mcp.ts';
import { createMockSkill } from './mock.ts';
import type { SkillRunner } from './types.ts';

export * from './types.ts';
export { createMockSkill, resultOfEntry } from './mock.ts';
export { createHttpSkill } from './http.ts';
export { boundKeys, type KeyAnswer, type KeyRing } from './keys.ts';
export { clampTimeout, exchange, RequestRefused, type Exchange } from './net.ts';
export { createLlmSkill } from './llm.ts';
export { accessOfTool, argsProblems, createMcpSkill, McpFailure, recordsOfAnswer, stricterAccess, type McpAnnotations, type McpAnswer, type McpConnection, type McpConnector, type McpTool, type ToolDescription } from './mcp.ts';
export { fillJsonTemplate, fillTemplate, readPath } from './template.ts';

/** What makes a skill's runner, for a skill of type `T`. */
export type RunnerMaker<T extends SkillType> = (name: string, skill: SkillOf<T>) => SkillRunner;

/** The runners of the types whose definition holds none (graph/skillTypes): a registered type with neither does not compile. */
export const RUNNERS: { [T in Exclude<SkillType, TypesWith<'runner'>>]: RunnerMaker<T> } = {
  mock: createMockSkill,
  http: createHttpSkill,
  llm: createLlmSkill,
  mcp: createMcpSkill,
};

/** The runners the definitions hold, held here to make a SkillRunner (a type the graph cannot name). */
const RUNNERS_HELD: { [T in TypesWith<'runner'>]: RunnerMaker<T> } = partsOf('runner');

const ALL_RUNNERS = { ...RUNNERS, ...RUNNERS_HELD } as Record<SkillType, RunnerMaker<SkillType>>;

export const createSkill = (name: string, skill: Skill): SkillRunner => ALL_RUNNERS[skill.type](name, skill as never);
