import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..');

// The LangGraph agents the journeys serve are written as their authors write them (a `StateSchema`
// of classic zod) and run only in the LangGraph dev server, never in Loopscope's own bundle.
const AGENT_FIXTURES = join(SRC, 'runtime', 'fixtures', 'langgraph');

const sourceFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return path === AGENT_FIXTURES ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });

describe('schemas', () => {
  // Classic zod attaches its JSON Schema converter (~22 KB gzip) to every schema, so one classic import
  // anywhere on the first screen's path puts it back in the start chunks.
  it('import zod/mini only, never classic zod', () => {
    const classic = sourceFiles(SRC).filter((path) => /from ['"]zod(\/v4)?['"]/.test(readFileSync(path, 'utf8')));
    expect(classic.map((path) => path.slice(SRC.length + 1))).toEqual([]);
  });
});
