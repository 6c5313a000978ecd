import type { Skill } from '../graph/skills.ts';
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

export const createSkill = (name: string, skill: Skill): SkillRunner => {
  switch (skill.type) {
    case 'mock':
      return createMockSkill(name, skill);
    case 'http':
      return createHttpSkill(name, skill);
    case 'llm':
      return createLlmSkill(name, skill);
    case 'mcp':
      return createMcpSkill(name, skill);
  }
};
