/**
 * The contract with lucide's private drawings: every icon module whose `__iconData` the app imports
 * still exports it as `{ node: [[tag, attributes], …] }`, so an upgrade of lucide-react that drops
 * or reshapes it fails here, not as a blank icon on screen.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('..', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [join(dir, entry.name)] : []);
const imported = [...new Set(sources(SRC).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/__iconData as \w+ \} from '(lucide-react\/icons\/[\w-]+)'/g)].map((match) => match[1])))].sort();

describe("lucide's __iconData", () => {
  it('is what the canvas and the panels draw their icons from', () => {
    expect(imported.length).toBeGreaterThan(10);
  });

  it.each(imported)('%s exports its drawing as [tag, attributes] elements', async (name) => {
    const { __iconData } = (await import(/* @vite-ignore */ name)) as { __iconData?: { node?: unknown } };
    const node = __iconData?.node;
    expect(Array.isArray(node) && node.length > 0).toBe(true);
    for (const element of node as unknown[]) expect(element).toEqual([expect.stringMatching(/^(path|circle|rect|line|polyline|polygon|ellipse)$/), expect.any(Object)]);
  });
});
