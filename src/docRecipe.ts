/**
 * A recipe of docs/architecture.md (adding a node kind, a skill type) followed in a copy of the
 * repository, for the tests that check the page and the code stay in step (addKind.test.ts,
 * addSkillType.test.ts): the section's code blocks become files, its steps edits, and the
 * project's own tools run there. A step whose place moved fails, naming it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The section's code blocks whose first line names a file (`// src/…`, and what follows it on that line), by that line, unindented. */
const docBlocks = (section: string): Map<string, string> => {
  const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const start = page.indexOf(section);
  if (start < 0) throw new Error(`docs/architecture.md has no "${section}"`);
  const text = page.slice(start + section.length).split(/\n## /)[0];
  const blocks = new Map<string, string>();
  for (const [, indent, body] of text.matchAll(/^( *)```ts\n([\s\S]*?)^ *```$/gm)) {
    const lines = body.split('\n').map((line) => line.slice(indent.length));
    const path = /^\/\/ (src\/.+)$/.exec(lines[0])?.[1];
    if (path) blocks.set(path, lines.slice(1).join('\n'));
  }
  return blocks;
};

/** A copy of the repository to follow `section` in; `remove` deletes it. */
export const followRecipe = (section: string, name: string) => {
  const copy = mkdtempSync(join(tmpdir(), `loopscope-${name}-`));
  for (const part of ['src', 'scripts', 'bench', 'corpus', 'examples', 'tsconfig.json', 'vite.config.ts', 'package.json']) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  // The sources and their tests, as `npm run typecheck` checks them.
  writeFileSync(join(copy, 'tsconfig.recipe.json'), JSON.stringify({ extends: './tsconfig.json', include: ['src'] }));

  const blocks = docBlocks(section);
  /** Every file the steps wrote or edited. */
  const touched = new Set<string>();
  const block = (key: string) => {
    const text = blocks.get(key);
    if (text === undefined) throw new Error(`docs/architecture.md's "${section}" has no block for ${key}`);
    return text;
  };
  const writeBlock = (path: string) => {
    writeFileSync(join(copy, path), block(path));
    touched.add(path);
  };
  /** Replaces the one place `anchor` matches in `path` (`$1` and the like as in String.replace). */
  const edit = (step: number, path: string, anchor: RegExp, replacement: string) => {
    const file = join(copy, path);
    const text = readFileSync(file, 'utf8');
    const matches = text.match(new RegExp(anchor.source, `${anchor.flags.replace('g', '')}g`))?.length ?? 0;
    if (matches !== 1) throw new Error(`step ${step} of "${section}": ${anchor} matches ${matches} times in ${path}, not once`);
    writeFileSync(file, text.replace(anchor, replacement));
    touched.add(path);
  };
  /** An import after the file's last one. */
  const addImport = (step: number, path: string, line: string) => edit(step, path, /(^import [^\n]*\n)(?![\s\S]*^import )/m, `$1${line}\n`);

  // Nested runs of the project's own tools; the vitest running the test must not leak into them.
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST'))), NO_COLOR: '1', FORCE_COLOR: '0' };
  const run = (tool: string, args: string[]) => {
    const result = spawnSync(join(copy, 'node_modules/.bin', tool), args, { cwd: copy, env, encoding: 'utf8' });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };
  const typecheck = () => run('tsc', ['--noEmit', '-p', 'tsconfig.recipe.json']);
  const remove = () => rmSync(copy, { recursive: true, force: true });
  return { touched, block, writeBlock, edit, addImport, run, typecheck, remove };
};
