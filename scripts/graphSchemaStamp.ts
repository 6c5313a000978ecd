import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A fingerprint of the graph layer's code (`src/graph`, its tests and fixtures left out) and of the
 * zod it runs on: what decides which files a page reads and how. The build puts it in the page
 * (`__GRAPH_SCHEMA__`), and the page stamps its own saves with it, so a save written by a page with
 * the very same schemas opens without being checked against them again (src/persistence/ownSave.ts); any
 * change to the layer, even a comment, makes a new stamp, and an older save is then read as
 * strictly as any file.
 */
export const graphSchemaStamp = (root: string): string => {
  const graphDir = join(root, 'src', 'graph');
  const files = readdirSync(graphDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx|json)$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith('fixtures'))
    .map((file) => join(graphDir, file))
    .sort();
  const hash = createHash('sha256');
  hash.update(`zod ${(JSON.parse(readFileSync(join(root, 'node_modules', 'zod', 'package.json'), 'utf8')) as { version: string }).version}\0`);
  for (const file of files) hash.update(`${relative(root, file)}\0${readFileSync(file, 'utf8')}\0`);
  return hash.digest('hex').slice(0, 16);
};
