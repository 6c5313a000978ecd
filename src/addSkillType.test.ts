import { afterAll, describe, expect, it } from 'vitest';
import { followRecipe } from './docRecipe.ts';

// docs/architecture.md's "Adding a skill type", followed in a copy of the repository, as
// addKind.test.ts follows "Adding a node kind": its code blocks become the new files (or, for
// src/graph/skills.ts, the lines added before SKILL_SCHEMAS), its steps the edits; then the type
// checker and the tests that concern skill types run there.
const { touched, block, writeBlock, edit, addImport, run, typecheck, remove } = followRecipe('## Adding a skill type', 'skill-type');
afterAll(remove);

/** An entry at the end of the map `name` (`const name: … = {` … `};`). */
const addEntry = (step: number, path: string, name: string, entry: string) =>
  edit(step, path, new RegExp(`(const ${name}: [^\\n]*\\{\\n[\\s\\S]*?)\\n\\};`), `$1\n  ${entry}\n};`);

describe('adding a skill type as docs/architecture.md says', () => {
  it('half added (defined, registered and with a schema, but in no map), the type checker names each map it is missing from', () => {
    writeBlock('src/graph/skillTypes/echo.ts');
    addImport(2, 'src/graph/skillTypes/index.ts', "import { echo } from './echo.ts';");
    edit(2, 'src/graph/skillTypes/index.ts', /(export const SKILL_TYPES = \{[^}]*?) \} as const;/, '$1, echo } as const;');
    edit(2, 'src/graph/skills.ts', /(\n\/\*\*\n \* Every registered skill type's schema)/, `\n${block('src/graph/skills.ts, before SKILL_SCHEMAS').replaceAll('$', '$$$$')}$1`);
    const result = typecheck();
    expect(result.status, result.output).not.toBe(0);
    expect(result.output).toMatch(/src\/graph\/skills\.ts\(\d+,\d+\): error TS\d+:[\s\S]*?Property 'echo' is missing/);
    expect(result.output).toMatch(/src\/skills\/index\.ts\(\d+,\d+\): error TS2741: Property 'echo' is missing/);
    expect(result.output).toMatch(/src\/editor\/inspector\/SkillsEditor\.tsx\(\d+,\d+\): error TS2741: Property 'echo' is missing/);
    expect(result.output).toMatch(/src\/editor\/inspector\/SkillField\.tsx\(\d+,\d+\): error TS2741: Property 'echo' is missing/);
  }, 180_000);

  // Goes on from the copy the case above left half done.
  it('with every step done, it type-checks, and its run and the skill types’ tests pass', () => {
    edit(2, 'src/graph/skills.ts', /(export const SKILL_SCHEMAS = \{[^}]*?) \} satisfies/, '$1, echo: EchoSkill } satisfies');
    writeBlock('src/skills/echo.ts');
    addImport(3, 'src/skills/index.ts', "import { createEchoSkill } from './echo.ts';");
    addEntry(3, 'src/skills/index.ts', 'RUNNERS', 'echo: createEchoSkill,');
    addEntry(4, 'src/editor/inspector/SkillsEditor.tsx', 'SKILL_SETTINGS', 'echo: () => null,');
    addEntry(4, 'src/editor/inspector/SkillField.tsx', 'NEW_SKILL_FIELDS', 'echo: () => null,');
    edit(5, 'src/graph/skillTypes/skillTypes.test.ts', /\['mock', 'http', 'llm', 'mcp'\]/, "['mock', 'http', 'llm', 'mcp', 'echo']");
    writeBlock('src/skills/echo.test.ts');

    const checked = typecheck();
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
    const tested = run('vitest', ['run', 'src/skills/echo.test.ts', 'src/graph/skillTypes/skillTypes.test.ts', 'src/skills/skills.test.ts', 'src/graph/hosts.test.ts']);
    expect(tested.status, tested.output).toBe(0);
    expect(tested.output).toMatch(/Test Files +4 passed/);
    // A type asks nothing of the code outside its registry and the maps held to it.
    expect([...touched].filter((path) => !/^src\/(graph\/skillTypes\/|graph\/skills\.ts$|skills\/|editor\/inspector\/Skill(sEditor|Field)\.tsx$)/.test(path))).toEqual([]);
  }, 240_000);
});
