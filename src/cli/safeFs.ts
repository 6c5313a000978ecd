/**
 * Reads and writes that stay in a folder: what `open`, `export` and `serve` write goes only to a
 * regular file inside the folder they were given, reached through real folders, never through a
 * link (a file of the folder — a cloned repository, an unpacked archive — may be a link to the
 * person's `~/.bashrc`), and a read opens only a regular file, never waiting on a named pipe or a
 * device (opening a pipe blocks until someone writes to it, holding one of Node's few I/O threads).
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { link, lstat, mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { LIMITS } from '../graph/limits.ts';

/**
 * At most this many bytes of a graph file are read: the text limit of an import, in the widest
 * encoding a character can take in UTF-8.
 */
export const MAX_GRAPH_BYTES = LIMITS.textChars * 4;

/** A path refused because it is a link, not a regular file or folder, or too large to read: the message names it. */
export class UnsafePath extends Error {}

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code;

/** What a non-regular entry is, in words. */
const kindOf = (stats: Stats): string =>
  stats.isSymbolicLink() ? 'a link'
  : stats.isDirectory() ? 'a folder'
  : stats.isFIFO() ? 'a named pipe'
  : stats.isSocket() ? 'a socket'
  : stats.isCharacterDevice() || stats.isBlockDevice() ? 'a device'
  : 'not a regular file';

/** The entry at `full` as it is (a link is not followed), or null when there is none. */
const entryAt = (full: string): Promise<Stats | null> =>
  lstat(full).catch((error: unknown) => {
    if (codeOf(error) === 'ENOENT') return null;
    throw error;
  });

/**
 * The folder `folders` (names, in order) leads to under `root`, each a real folder (not a link);
 * with `make`, the missing ones are made. `shown` names the path in a refusal.
 */
export const realFolder = async (root: string, folders: readonly string[], shown: string, make: boolean): Promise<string> => {
  let folder = root;
  for (const [index, name] of folders.entries()) {
    folder = join(folder, name);
    let stats = await entryAt(folder);
    if (!stats && make) {
      await mkdir(folder).catch((error: unknown) => {
        if (codeOf(error) !== 'EEXIST') throw error;
      });
      stats = await entryAt(folder);
    }
    const where = folders.slice(0, index + 1).join('/');
    if (!stats) throw Object.assign(new Error(`${shown}: the folder ${where}/ does not exist`), { code: 'ENOENT' });
    if (!stats.isDirectory()) throw new UnsafePath(`${where === shown ? '' : `${shown}: `}${where} is ${kindOf(stats)}, not a folder: nothing is written or removed through it`);
  }
  return folder;
};

/** The regular file at `full`, or null when there is none; refused when it is a link or anything else. */
const regularAt = async (full: string, shown: string): Promise<Stats | null> => {
  const stats = await entryAt(full);
  if (stats && !stats.isFile()) throw new UnsafePath(`${shown} is ${kindOf(stats)}, not a regular file: nothing is written or removed through it`);
  return stats;
};

/** Where `path` (relative, `/`-separated) leads under `root`, through real folders that are there. */
const placeOf = async (root: string, path: string) => {
  const segments = path.split('/');
  const folder = await realFolder(root, segments.slice(0, -1), path, false);
  const name = segments[segments.length - 1];
  return { folder, name, full: join(folder, name) };
};

/** The regular file `path` names under `root`, reached through real folders: its full path, and its entry when it is there. */
export const fileInside = async (root: string, path: string): Promise<{ full: string; stats: Stats | null }> => {
  const { full } = await placeOf(root, path);
  return { full, stats: await regularAt(full, path) };
};

/**
 * Writes `text` as the regular file `path` under `root` (its folders must be there), whole or not
 * at all: into a new temporary dot-file beside it (created, never opened through a link), then
 * renamed over it (which replaces the name, never what a link or another hard link of it leads
 * to), keeping a replaced file's mode. With `create`, the file is only made when the name is free
 * (anything there, a link included, fails with EEXIST and is left as it is).
 */
export const writeInside = async (root: string, path: string, text: string, { create = false } = {}): Promise<string> => {
  const { folder, name, full } = await placeOf(root, path);
  const stats = create ? null : await regularAt(full, path);
  const temporary = join(folder, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, stats ? stats.mode & 0o7777 : 0o666);
    try {
      await handle.writeFile(text);
      // The mode asked for at creation is narrowed by the umask: a replaced file keeps its own.
      if (stats) await handle.chmod(stats.mode & 0o7777);
    } finally {
      await handle.close();
    }
    // link fails when the name is taken: a new file never replaces one made meanwhile.
    if (create) await link(temporary, full);
    else await rename(temporary, full);
  } finally {
    await rm(temporary, { force: true }).catch(() => undefined);
  }
  return full;
};

/**
 * Opens a file for reading only when it is a regular file: opened without waiting (a named pipe
 * would block until written to), then refused unless it is one. `shown` names it in the refusal.
 */
export const openRegular = async (full: string, shown: string): Promise<FileHandle> => {
  const handle = await open(full, constants.O_RDONLY | constants.O_NONBLOCK);
  const stats = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  if (stats.isFile()) return handle;
  await handle.close();
  throw new UnsafePath(`${shown} is ${kindOf(stats)}, not a regular file: it is not read`);
};

/** The bytes read at a time (a multiple of 8: some kernel files read only in whole entries). */
const READ_CHUNK = 64 * 1024;

/**
 * The bytes of the regular file at `full` (see openRegular), refused unread when it holds more than
 * `maxBytes`: a graph named on the command line may be a link to /dev/zero or a named pipe, and a
 * read of it would never end, or fill the memory (`loopscope test graphs/*.json` in a CI job).
 */
export const readRegular = async (full: string, shown: string, maxBytes: number): Promise<Uint8Array> => {
  const handle = await openRegular(full, shown);
  const tooLarge = (size: string) => new UnsafePath(`${shown} is too large: ${size}, at most ${(maxBytes / 1e6).toFixed(1)} MB is read`);
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw tooLarge(`${(size / 1e6).toFixed(1)} MB`);
    // Read to the bound, whatever the size said: a kernel file (a link to /proc/self/pagemap) is a
    // regular file of size 0 that reads on for hundreds of gigabytes.
    const chunks: Uint8Array[] = [];
    let read = 0;
    for (;;) {
      const { bytesRead, buffer } = await handle.read(new Uint8Array(READ_CHUNK), 0, READ_CHUNK, null);
      if (bytesRead === 0) return Buffer.concat(chunks, read);
      chunks.push(buffer.subarray(0, bytesRead));
      read += bytesRead;
      if (read > maxBytes) throw tooLarge(`more than ${(maxBytes / 1e6).toFixed(1)} MB`);
    }
  } finally {
    await handle.close();
  }
};
