// Apart from ./index.ts, which the canvas loads on its first screen: only the schemas' and the
// runners' modules, which load later, gather the parts a definition holds.
import { SKILL_TYPE_NAMES, SKILL_TYPES, type DefinitionOf, type SkillType } from './index.ts';
import type { SkillTypeDefinition, SkillTypePart } from './types.ts';

/** The registered types whose definition holds `part` itself (`schema`, `runner`); the others' are in that part's map. */
export type TypesWith<Part extends SkillTypePart> = { [T in SkillType]: DefinitionOf<T> extends Record<Part, unknown> ? T : never }[SkillType];

/** The `part` of each definition that holds it, by type: what a part's map adds to its own entries. */
export const partsOf = <Part extends SkillTypePart>(part: Part) =>
  Object.fromEntries(SKILL_TYPE_NAMES.flatMap((type) => {
    const held = (SKILL_TYPES[type] as SkillTypeDefinition)[part];
    return held === undefined ? [] : [[type, held]];
  })) as { [T in TypesWith<Part>]: DefinitionOf<T>[Part] };
