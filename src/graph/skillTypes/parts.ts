// Apart from ./index.ts, which the canvas loads on its first screen: only the modules that load
// later (the schemas', the runners', the inspector's) gather the parts a definition holds, and
// those the built-in types keep beside theirs (`X.parts.ts`).
import type { TypesWithOwnFields } from '../skills.ts';
import { httpParts } from './http.parts.ts';
import { SKILL_TYPE_NAMES, SKILL_TYPES, type DefinitionOf, type SkillOf, type SkillType } from './index.ts';
import { llmParts } from './llm.parts.ts';
import { mcpParts } from './mcp.parts.ts';
import { mockParts } from './mock.parts.ts';
import type { SkillSettings, SkillTypeDefinition, SkillTypePart } from './types.ts';

/** The registered types whose definition holds `part` itself (`schema`, `runner`, `settings`); the others' are in that part's map. */
export type TypesWith<Part extends SkillTypePart> = { [T in SkillType]: DefinitionOf<T> extends Record<Part, unknown> ? T : never }[SkillType];

/** The `part` of each definition that holds it, by type: what a part's map adds to its own entries. */
export const partsOf = <Part extends SkillTypePart>(part: Part) =>
  Object.fromEntries(SKILL_TYPE_NAMES.flatMap((type) => {
    const held = (SKILL_TYPES[type] as SkillTypeDefinition)[part];
    return held === undefined ? [] : [[type, held]];
  })) as { [T in TypesWith<Part>]: DefinitionOf<T>[Part] };

/**
 * The settings of the types whose definition holds none, kept in their `X.parts.ts`: a registered
 * type whose skills have fields of their own (beyond `type` and SkillBase's) with settings in
 * neither place does not compile, nor settings naming a field its skill does not have.
 */
const SETTINGS: { [T in Exclude<TypesWithOwnFields, TypesWith<'settings'>>]: SkillSettings<SkillOf<T>> } = {
  mock: mockParts.settings,
  http: httpParts.settings,
  llm: llmParts.settings,
  mcp: mcpParts.settings,
};
const settingsHeld: Partial<Record<SkillType, SkillSettings>> = partsOf('settings');

/** How the inspector edits a skill of the type; a type with no fields of its own has none: nothing to edit, nothing more to ask. */
export const settingsOf = (type: SkillType): SkillSettings | undefined =>
  settingsHeld[type] ?? (Object.hasOwn(SETTINGS, type) ? (SETTINGS[type as keyof typeof SETTINGS] as SkillSettings) : undefined);

