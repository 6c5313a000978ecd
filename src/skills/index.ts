import type { Skill } from '../graph/skills.ts';
import type { SkillOf, SkillType } from '../graph/skillTypes/index.ts';
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

/** The one place skill types get their behaviour: a registered type (graph/skillTypes) without a runner does not compile. */
export const RUNNERS: { [T in SkillType]: RunnerMaker<T> } = {
  mock: createMockSkill,
  http: createHttpSkill,
  llm: createLlmSkill,
  mcp: createMcpSkill,
};

export const createSkill = (name: string, skill: Skill): SkillRunner => (RUNNERS[skill.type] as RunnerMaker<SkillType>)(name, skill as never);
