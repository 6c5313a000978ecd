import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Skill, SKILL_SCHEMAS } from '../skills.ts';
import { callsOfSkill, isScripted, SKILL_TYPE_NAMES, SKILL_TYPES, skillTypeDefinition, STAND_IN_TYPE, toolOfSkill } from './index.ts';

describe('the skill-type registry', () => {
  it('lists each type once, keyed by its own name, the built-in ones first in the inspector’s order', () => {
    expect(SKILL_TYPE_NAMES.slice(0, 4)).toEqual(['mock', 'http', 'llm', 'mcp']);
    expect(new Set(SKILL_TYPE_NAMES).size).toBe(SKILL_TYPE_NAMES.length);
    for (const type of SKILL_TYPE_NAMES) expect(SKILL_TYPES[type].type).toBe(type);
  });

  it('gives each type a schema, and its defaults are a skill of that type the schema takes', () => {
    expect(Object.keys(SKILL_SCHEMAS)).toEqual(SKILL_TYPE_NAMES);
    for (const type of SKILL_TYPE_NAMES) {
      const defaults = skillTypeDefinition(type).defaults();
      expect(Skill.safeParse(defaults)).toMatchObject({ success: true, data: { type } });
    }
  });

  it('has one scripted type, the one scenarios stand real skills in by', () => {
    expect(SKILL_TYPE_NAMES.filter((type) => isScripted({ type }))).toEqual([STAND_IN_TYPE]);
  });

  it('says what a skill contacts and which key it sends there, for a skill not checked yet', () => {
    expect(callsOfSkill({ type: 'http', url: 'https://a.example/x' })).toEqual([{ address: 'https://a.example/x' }]);
    expect(callsOfSkill({ type: 'llm', baseUrl: 'https://b.example/v1', apiKeyName: 'B_KEY' })).toEqual([{ address: 'https://b.example/v1', keyName: 'B_KEY' }]);
    expect(callsOfSkill({ type: 'llm', baseUrl: 'https://b.example/v1', apiKeyName: '' })).toEqual([{ address: 'https://b.example/v1' }]);
    expect(callsOfSkill({ type: 'http', url: 42 })).toEqual([]);
    for (const type of ['mock', 'mcp', 'grpc', '__proto__', undefined]) expect(callsOfSkill({ type })).toEqual([]);
  });

  it('says which MCP tool a skill calls', () => {
    expect(toolOfSkill({ type: 'mcp', server: 'files', tool: 'read' } as never)).toEqual({ server: 'files', tool: 'read' });
    expect(toolOfSkill(skillTypeDefinition('http').defaults() as never)).toBeNull();
  });
});

// Adding a skill type edits skillTypes/ and the maps the compiler holds to it (its schema, its
// runner, its inspector forms), nothing else: code elsewhere asks the definition for a capability
// (scripted, calls, tool, impliedAccess) instead of naming a type. These are the ways code names one.
const SRC = fileURLToPath(new URL('../..', import.meta.url));
const TYPE = SKILL_TYPE_NAMES.join('|');
const QUOTE = '[\'"`]';
const NAMING_A_TYPE = [
  new RegExp(`type\\s*[!=]==?\\s*${QUOTE}(?:${TYPE})${QUOTE}`), // skill.type === 'mcp'
  new RegExp(`${QUOTE}(?:${TYPE})${QUOTE}\\s*[!=]==?\\s*[\\w.?]*type\\b`), // 'mcp' === skill.type
  new RegExp(`\\bcase\\s+${QUOTE}(?:${TYPE})${QUOTE}\\s*:`), // case 'http':
  new RegExp(`\\btype\\s*:\\s*${QUOTE}(?:${TYPE})${QUOTE}`), // { type: 'mock', … }
  new RegExp(`${QUOTE}(?:${TYPE})${QUOTE}\\s*,\\s*${QUOTE}(?:${TYPE})${QUOTE}`), // ['mock', 'http']
  new RegExp(`\\[\\s*${QUOTE}(?:${TYPE})${QUOTE}\\s*\\]`), // ['mcp'].includes(type)
  new RegExp(`<\\s*${QUOTE}(?:${TYPE})${QUOTE}\\s*>`), // SkillOf<'llm'>
];
const namesAType = (line: string) => NAMING_A_TYPE.some((pattern) => pattern.test(line));
/** Where a type is named by right: the registry, and graphs written as data (a test service's). */
const REGISTRY = ['graph/skillTypes'];
const DATA = ['runtime/countingService.ts'];

const sourcesOutsideRegistry = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return REGISTRY.includes(relative(SRC, path)) ? [] : sourcesOutsideRegistry(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !DATA.includes(relative(SRC, path)) ? [path] : [];
  });

describe('nothing outside skillTypes/ switches on a skill type', () => {
  it.each([
    "if (skill?.type !== 'mcp') return [];",
    "if (draft.type === 'mock') candidate = { ...base, script: draft.script };",
    '    case "llm":',
    "return [name, { type: 'mock', access: skill.access, script }];",
    "const SKILL_TYPES = ['mock', 'http', 'llm'] as const;",
    "function ApiKeyField({ skill }: { skill: Extract<Skill, { type: 'llm' }> }) {",
  ])('sees a type named in code: %s', (line) => {
    expect(namesAType(line)).toBe(true);
  });

  it.each([
    "if (url.protocol === 'http:') return url;",
    "if (item.type === 'text') return item.text;",
    "type: z.optional(z.enum(['http', 'streamable-http'])),",
    'const called = toolOfSkill(skill);',
  ])('does not take other words for types: %s', (line) => {
    expect(namesAType(line)).toBe(false);
  });

  it('in any source file outside src/graph/skillTypes', () => {
    const files = sourcesOutsideRegistry(SRC);
    expect(files.length).toBeGreaterThan(100);
    const named = files.flatMap((file) =>
      readFileSync(file, 'utf8').split('\n').flatMap((line, at) => (namesAType(line) ? [`${relative(SRC, file)}:${at + 1}: ${line.trim()}`] : [])));
    expect(named).toEqual([]);
  });
});
