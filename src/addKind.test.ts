import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// docs/architecture.md's "Adding a node kind", followed in a copy of the repository: its code blocks
// become the new files, its steps the edits; then the type checker and the tests that concern kinds
// run there. An edit that no longer finds its place, or a block that no longer compiles or passes,
// fails this test: the page and the code stay in step.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECTION = '## Adding a node kind';

/** The section's code blocks whose first line names a file (`// src/…`), by that path, unindented. */
const docBlocks = (): Map<string, string> => {
  const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const start = page.indexOf(SECTION);
  if (start < 0) throw new Error(`docs/architecture.md has no "${SECTION}"`);
  const section = page.slice(start + SECTION.length).split(/\n## /)[0];
  const blocks = new Map<string, string>();
  for (const [, indent, body] of section.matchAll(/^( *)```ts\n([\s\S]*?)^ *```$/gm)) {
    const lines = body.split('\n').map((line) => line.slice(indent.length));
    const path = /^\/\/ (src\/\S+)$/.exec(lines[0])?.[1];
    if (path) blocks.set(path, lines.slice(1).join('\n'));
  }
  return blocks;
};

const copy = mkdtempSync(join(tmpdir(), 'loopscope-kind-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));
for (const part of ['src', 'scripts', 'bench', 'corpus', 'examples', 'tsconfig.json', 'vite.config.ts', 'package.json']) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
// The sources and their tests, as `npm run typecheck` checks them (the rest of the project does not import kinds).
writeFileSync(join(copy, 'tsconfig.kind.json'), JSON.stringify({ extends: './tsconfig.json', include: ['src'] }));

const blocks = docBlocks();
/** Every file the steps wrote or edited. */
const touched = new Set<string>();
const writeBlock = (path: string) => {
  const text = blocks.get(path);
  if (text === undefined) throw new Error(`docs/architecture.md's "${SECTION}" has no block for ${path}`);
  writeFileSync(join(copy, path), text);
  touched.add(path);
};

/** Replaces the one place `anchor` matches in `path`; a step whose place moved fails here, naming it. */
const edit = (step: number, path: string, anchor: RegExp, replacement: string) => {
  const file = join(copy, path);
  const text = readFileSync(file, 'utf8');
  const matches = text.match(new RegExp(anchor.source, `${anchor.flags.replace('g', '')}g`))?.length ?? 0;
  if (matches !== 1) throw new Error(`step ${step} of "${SECTION}": ${anchor} matches ${matches} times in ${path}, not once`);
  writeFileSync(file, text.replace(anchor, replacement));
  touched.add(path);
};

/** An import after the file's last one. */
const addImport = (step: number, path: string, line: string) => edit(step, path, /(^import [^\n]*\n)(?![\s\S]*^import )/m, `$1${line}\n`);

// Nested runs of the project's own tools; the vitest running this file must not leak into them.
const env = { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST'))), NO_COLOR: '1', FORCE_COLOR: '0' };
const run = (tool: string, args: string[]) => {
  const result = spawnSync(join(copy, 'node_modules/.bin', tool), args, { cwd: copy, env, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};
const typecheck = () => run('tsc', ['--noEmit', '-p', 'tsconfig.kind.json']);

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
