import { afterAll, describe, expect, it } from 'vitest';
import { followRecipe } from './docRecipe.ts';

// docs/architecture.md's "Adding a node kind", followed in a copy of the repository: its code blocks
// become the new files, its steps the edits; then the type checker and the tests that concern kinds
// run there. An edit that no longer finds its place, or a block that no longer compiles or passes,
// fails this test: the page and the code stay in step.
const { touched, writeBlock, edit, addImport, run, typecheck, remove } = followRecipe('## Adding a node kind', 'kind');
afterAll(remove);

describe('adding a node kind as docs/architecture.md says', () => {
  it('half added (defined and in KINDS, with no schemas registered, no executor and no examples), the type checker names what is missing', () => {
    writeBlock('src/graph/kinds/echo.ts');
    writeBlock('src/graph/kinds/echo.schema.ts');
    addImport(2, 'src/graph/kinds/index.ts', "import { echo } from './echo.ts';");
    edit(2, 'src/graph/kinds/index.ts', /(export const KINDS = \{[^}]*?) \} as const;/, '$1, echo } as const;');
    const result = typecheck();
    expect(result.status, result.output).not.toBe(0);
    expect(result.output).toMatch(/src\/runtime\/kinds\/index\.ts\(\d+,\d+\): error TS2741: Property 'echo' is missing/);
    expect(result.output).toMatch(/src\/graph\/kinds\/examples\.ts\(\d+,\d+\): error TS2741: Property 'echo' is missing/);
    expect(result.output).toMatch(/src\/graph\/kinds\/schemas\.ts\(\d+,\d+\): error TS2741: Property 'echo' is missing/);
  }, 180_000);

  // Goes on from the copy the case above left half done.
  it('with every step done, it type-checks and its runs and the kinds’ tests pass', () => {
    writeBlock('src/runtime/kinds/echo.ts');
    addImport(4, 'src/runtime/kinds/index.ts', "import { executeEcho } from './echo.ts';");
    edit(4, 'src/runtime/kinds/index.ts', /(export const EXECUTORS: [^\n]*\{\n[\s\S]*?)\n\};/, '$1\n  echo: executeEcho,\n};');
    addImport(2, 'src/graph/kinds/schemas.ts', "import { echoSchemas } from './echo.schema.ts';");
    edit(2, 'src/graph/kinds/schemas.ts', /(export const KIND_SCHEMAS = \{\n[\s\S]*?)\n\} satisfies/, '$1\n  echo: echoSchemas,\n} satisfies');
    edit(2, 'src/graph/kinds/examples.ts', /(export const KIND_EXAMPLES: [^\n]*\{\n[\s\S]*?)\n\};/, "$1\n  echo: () => fc.record({ text: fc.string({ maxLength: 10 }) }, { requiredKeys: [] }),\n};");
    edit(5, 'src/graph/kinds/kinds.test.ts', /(const SPEC = \{\n[\s\S]*?)\n\} as const;/, "$1\n  echo: { writes: ['echoed'], outcomes: ['ok'], title: 'Echo', mermaid: 'box' },\n} as const;");
    edit(5, 'src/graph/state.test.ts', /'approval', 'response'\]/, "'approval', 'response', 'echoed']");
    edit(5, 'src/graph/parse.test.ts', /respond, stop\)/, 'respond, stop, echo)');
    writeBlock('src/runtime/kinds/echo.test.ts');

    const checked = typecheck();
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
    const tests = [
      'src/runtime/kinds/echo.test.ts', 'src/graph/kinds/kinds.test.ts', 'src/graph/state.test.ts', 'src/graph/parse.test.ts',
      // Graphs of every kind, made at random: parsed, validated, exported and run to a stop.
      'src/graph/properties.test.ts', 'src/runtime/properties.test.ts',
    ];
    const tested = run('vitest', ['run', ...tests]);
    expect(tested.status, tested.output).toBe(0);
    expect(tested.output).toMatch(/Test Files +6 passed/);
    // The kind is a capability of its definition everywhere else: the code the steps touched is in kinds/ (and tests).
    expect([...touched].filter((path) => !/^src\/(graph|runtime)\/kinds\//.test(path) && !path.endsWith('.test.ts'))).toEqual([]);
  }, 240_000);
});
