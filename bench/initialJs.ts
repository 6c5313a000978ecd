import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The JavaScript a built page's HTML loads at once (its entry scripts and modulepreloads), each with its gzipped size, biggest first. */
export const initialJsFiles = (dir: string, html: string): { file: string; gzipKb: number }[] => {
  const text = readFileSync(join(dir, html), 'utf8');
  const sources = [...text.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g), ...text.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((match) => match[1]);
  return [...new Set(sources)]
    .map((source) => ({ file: source.replace(/^\//, ''), gzipKb: gzipSync(readFileSync(join(dir, source.replace(/^\//, '')))).length / 1024 }))
    .sort((a, b) => b.gzipKb - a.gzipKb);
};

/** The sum of the gzipped JavaScript a page's HTML loads at once (zlib's default level): the bench's row and `npm run size`'s budget. */
export const initialJsGzipKb = (dir: string, html: string) => initialJsFiles(dir, html).reduce((sum, { gzipKb }) => sum + gzipKb, 0);
