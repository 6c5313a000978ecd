import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRegular, UnsafePath } from './safeFs.ts';

describe('readRegular reads to its bound, whatever the file says its size is', () => {
  // A kernel file is a regular file of size 0 that reads on (/proc/kallsyms a few MB, /proc/self/pagemap
  // hundreds of GB): a graph named on the command line may be a link to one.
  it.skipIf(!existsSync('/proc/kallsyms'))('a link to a kernel file of size 0 is refused past the bound, not read whole', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'loopscope-proc-'));
    try {
      await symlink('/proc/kallsyms', join(dir, 'a.json'));
      const read = readRegular(join(dir, 'a.json'), 'a.json', 100_000);
      await expect(read).rejects.toThrow(UnsafePath);
      await expect(read).rejects.toThrow('a.json is too large: more than 0.1 MB, at most 0.1 MB is read');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a file within the bound is read whole, one of exactly the bound too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'loopscope-read-'));
    try {
      const text = 'x'.repeat(200_000);
      await writeFile(join(dir, 'a.json'), text);
      expect(Buffer.from(await readRegular(join(dir, 'a.json'), 'a.json', 200_000)).toString()).toBe(text);
      await expect(readRegular(join(dir, 'a.json'), 'a.json', 199_999)).rejects.toThrow('a.json is too large: 0.2 MB, at most 0.2 MB is read');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
