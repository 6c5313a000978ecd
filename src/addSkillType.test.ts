import { afterAll, describe, expect, it } from 'vitest';
import { followRecipe } from './docRecipe.ts';

// docs/architecture.md's "Adding a skill type", followed in a copy of the repository, as
// addKind.test.ts follows "Adding a node kind": its code blocks become the new files, its steps the
// edits; then the type checker and the tests that concern skill types run there.
const { touched, writeBlock, edit, addImport, run, typecheck, remove } = followRecipe('## Adding a skill type', 'skill-type');
afterAll(remove);

const DEFINITION = 'src/graph/skillTypes/echo.ts';
const REGISTRY = 'src/graph/skillTypes/index.ts';

describe('adding a skill type as docs/architecture.md says', () => {
  it('registered with a half-defined file (no schema, no settings for its field, no runner), the type checker names where each is missing', () => {
    writeBlock(DEFINITION);
    edit(1, DEFINITION, /\n  schema,\n/, '\n');
    edit(1, DEFINITION, /\n  settings: [^\n]*\n/, '\n');
    edit(1, DEFINITION, /\n  runner: [\s\S]*?\n  \}\),\n/, '\n');
    addImport(2, REGISTRY, "import { echo } from './echo.ts';");
    edit(2, REGISTRY, /(export const SKILL_TYPES = \{[^}]*?) \} as const;/, '$1, echo } as const;');
    const result = typecheck();
    expect(result.status, result.output).not.toBe(0);
    expect(result.output).toMatch(/src\/graph\/skills\.ts\(\d+,\d+\): error TS2741: Property 'echo' is missing[^\n]*ZodMini/);
    expect(result.output).toMatch(/src\/skills\/index\.ts\(\d+,\d+\): error TS2741: Property 'echo' is missing[^\n]*RunnerMaker/);
    // Its field of its own (`url`) and no settings: the inspector would have nothing to edit it with.
    expect(result.output).toMatch(/src\/graph\/skillTypes\/parts\.ts\(\d+,\d+\): error TS2741: Property 'echo' is missing[^\n]*SkillSettings/);
  }, 300_000);

  // Goes on from the copy the case above left half done.
  it('with its whole file, it type-checks, and its run (through the context’s fetch), its settings and the skill types’ tests pass: one new file and one registry line', () => {
    writeBlock(DEFINITION);
    const checked = typecheck();
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
    // The code is the file and the registry line; its test comes with it, as every module's does.
    expect([...touched].sort()).toEqual([DEFINITION, REGISTRY]);

    writeBlock('src/skills/echo.test.ts');
    // The registry's own tests too: its scan now looks for `echo` named outside skillTypes/.
    const tested = run('vitest', ['run', 'src/skills/echo.test.ts', 'src/graph/skillTypes/skillTypes.test.ts']);
    expect(tested.status, tested.output).toBe(0);
    expect(tested.output).toMatch(/Test Files +2 passed/);
  }, 420_000);
});
