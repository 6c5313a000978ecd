import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = import.meta.dirname;
// Whole-line comments, which may name an import they talk about.
const COMMENTS = /^\s*\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm;
// What loads a module when this one runs: import and export-from statements (not type-only ones) and import() (not in a type).
const IMPORTS = /^\s*(?:import|export)\s+(?!type\s)(?:[^;'"]*?\s+from\s+)?'(\.[^']+)'|(?<!typeof\s+)\bimport\(\s*'(\.[^']+)'\s*\)/gm;

/** Each source file of src/ (tests aside) and the source files it imports, statically or on demand. */
const importGraph = () => {
  const files = readdirSync(ROOT, { recursive: true, encoding: 'utf8' }).filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.endsWith('.d.ts'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8').replace(COMMENTS, '');
    const targets = [...text.matchAll(IMPORTS)]
      .map((match) => relative(ROOT, join(ROOT, dirname(file), match[1] ?? match[2])))
      .filter((target) => /\.tsx?$/.test(target) && existsSync(join(ROOT, target)));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
};

/** Every cycle a depth-first walk closes, each as the path of files that leads back to its first. */
const cyclesOf = (graph: ReadonlyMap<string, readonly string[]>) => {
  const cycles: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const walk = (file: string) => {
    path.push(file);
    for (const target of graph.get(file) ?? []) {
      const at = path.indexOf(target);
      if (at >= 0) cycles.push([...path.slice(at), target].join(' → '));
      else if (!done.has(target)) walk(target);
    }
    path.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) if (!done.has(file)) walk(file);
  return cycles;
};

describe('imports', () => {
  it('finds a cycle through an import(), and none through a type', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts']],
      ['c.ts', []],
    ]);
    expect(cyclesOf(graph)).toEqual(['a.ts → b.ts → a.ts']);
    const line = "export const later = () => import('./b.ts');\ntype B = typeof import('./c.ts');\nimport type { D } from './d.ts';\nimport { e } from './e.ts';";
    expect([...line.matchAll(IMPORTS)].map((match) => match[1] ?? match[2])).toEqual(['./b.ts', './e.ts']);
  });

  it('of src/, static and on demand, make no cycle', () => {
    expect(cyclesOf(importGraph())).toEqual([]);
  });
});
