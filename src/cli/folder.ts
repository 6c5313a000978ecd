/**
 * The person's folder as `loopscope open` reads and writes it: its graph files (`*.json` whose
 * `format` is `loopscope/graph`, in subfolders too, `node_modules` and dot-folders left out),
 * each read, written atomically (a temporary file renamed over it), created or deleted by its path
 * in the folder. A path is refused before any file is touched unless it names a graph file inside
 * the folder: no `..`, no absolute path, no backslash, nothing through a link that leads out; a
 * write or a delete goes through no link at all, and only a regular file is read (safeFs.ts).
 */
import { readdir, realpath, stat, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep, win32 } from 'node:path';
import { watch as watchFiles } from 'chokidar';
import { decodeText } from '../graph/bytes.ts';
import { describeProblems, LIMITS, readJson } from '../graph/index.ts';
import { parseGraph } from '../graph/parse.ts';
import { GRAPH_FORMAT } from '../graph/schema.ts';
import { fileInside, MAX_GRAPH_BYTES, openRegular, UnsafePath, writeInside } from './safeFs.ts';

/** A request the folder refuses, with the HTTP status that says why. */
export class FolderError extends Error {
  constructor(readonly status: 400 | 403 | 404 | 409 | 413 | 500 | 507, message: string) {
    super(message);
  }
}

/** A graph file of the folder as Graphs lists it. */
export interface GraphListing {
  /** Its path in the folder, with `/` between folders. */
  path: string;
  /** The graph's name, when the file is a valid graph. */
  name?: string;
  /** When it was last written (ms since 1970). */
  savedAt: number;
  /** What is wrong with it, when it is not a valid graph: it opens read-only. */
  problem?: string;
}

/** A change of a graph file on disk; `by`, when the server wrote it for a page: the writer that page named (a page drops its own changes' echo by it). */
export type FileChange = { path: string; kind: 'changed'; savedAt: number; by?: string } | { path: string; kind: 'removed' };

/** How much of a too-big file is read to see whether it says it is a graph. */
const HEAD_BYTES = 64 * 1024;
const FORMAT_IN_HEAD = /"format"\s*:\s*"loopscope\/graph"/;
/** Folders deeper than this are not walked (a link loop cannot happen, links to folders are not followed, but a deep tree can). */
const MAX_DEPTH = 32;

const leftOut = (segment: string) => segment.startsWith('.') || segment === 'node_modules';

/**
 * The relative path a request names, checked as text: `/`-separated, no empty, `.` or `..`
 * segment, no dot-folder or `node_modules`, no backslash, no drive, not absolute, a `.json` name.
 * (A URL's encoded form was decoded once already; what is left is taken literally.)
 */
export const checkedPath = (path: unknown): string => {
  if (typeof path !== 'string' || path.length === 0) throw new FolderError(400, 'a path of a graph file in the folder is needed');
  if (path.length > 1024 || path.includes('\0')) throw new FolderError(400, 'not a usable path');
  if (isAbsolute(path) || win32.isAbsolute(path) || /^[a-zA-Z]:/.test(path)) throw new FolderError(403, `${path}: an absolute path is refused; paths are relative to the folder`);
  if (path.includes('\\')) throw new FolderError(403, `${path}: a backslash is refused; separate folders with /`);
  const segments = path.split('/');
  if (segments.some((segment) => segment === '..')) throw new FolderError(403, `${path}: ".." is refused; no path leaves the folder`);
  if (segments.some((segment) => segment === '' || segment === '.')) throw new FolderError(400, `${path}: an empty or "." part is refused`);
  if (segments.some(leftOut)) throw new FolderError(403, `${path}: dot-folders, dot-files and node_modules are left out`);
  if (!path.toLowerCase().endsWith('.json')) throw new FolderError(400, `${path}: a graph file's name ends in .json`);
  return path;
};

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code;

/** A write that failed, in words the page shows (the disk full, the folder read-only, …). */
const writeFailure = (path: string, error: unknown): FolderError => {
  const code = codeOf(error);
  if (code === 'ENOSPC' || code === 'EDQUOT') return new FolderError(507, `${path} could not be written: the disk is full (${code})`);
  if (code === 'EROFS') return new FolderError(500, `${path} could not be written: the folder is on a read-only file system (${code})`);
  if (code === 'EACCES' || code === 'EPERM') return new FolderError(500, `${path} could not be written: permission denied (${code})`);
  return new FolderError(500, `${path} could not be written (${code ?? (error instanceof Error ? error.message : String(error))})`);
};

/** Whether a text says it is a Loopscope graph, valid or not: a JSON object whose `format` is `loopscope/graph`. */
const saysGraph = (text: string): boolean => {
  const json = readJson(text);
  if (json.ok) return typeof json.value === 'object' && json.value !== null && !Array.isArray(json.value) && (json.value as Record<string, unknown>).format === GRAPH_FORMAT;
  // Too big, too deep or not JSON: its opening says it, as an exported file's does.
  return FORMAT_IN_HEAD.test(text.slice(0, HEAD_BYTES));
};

/** What a graph file holds, read within the limits of an import. */
type FileRead = { kind: 'graph'; text: string; name?: string; problem?: string } | { kind: 'too-big'; problem: string } | { kind: 'other' };

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export interface Folder {
  /** The folder, as given (resolved). */
  root: string;
  list: () => Promise<GraphListing[]>;
  /** A graph file's text and when it was written; with what is wrong with it when it is not a valid graph (the page shows it read-only). */
  read: (path: string) => Promise<{ text: string; savedAt: number; problem?: string }>;
  /**
   * Writes a graph's text (refused unless it is a valid graph) over the file, atomically; with
   * `create`, only when no file has the name. A file that is there and is not a graph is never written.
   */
  write: (path: string, text: string, options?: { create?: boolean; by?: string }) => Promise<{ savedAt: number }>;
  remove: (path: string) => Promise<void>;
  /**
   * Calls `onChange` when a graph file is written or removed by anyone (an editor, `git checkout`,
   * this folder's own writes), once per path within `debounceMs`. Returns a stop function.
   */
  watch: (onChange: (change: FileChange) => void, options?: { debounceMs?: number; onError?: (error: Error) => void }) => Promise<() => Promise<void>>;
}

/** The folder at `root`: refused with a message when it does not exist or cannot be read. */
export const openFolder = async (root: string): Promise<Folder> => {
  let real: string;
  try {
    real = await realpath(root);
    if (!(await stat(real)).isDirectory()) throw new FolderError(400, `${root} is not a folder`);
    await readdir(real);
  } catch (error) {
    if (error instanceof FolderError) throw error;
    const code = codeOf(error);
    throw new FolderError(404, code === 'ENOENT' ? `${root}: no such folder` : code === 'EACCES' || code === 'EPERM' ? `${root}: the folder cannot be read (permission denied)` : `${root}: the folder cannot be read (${code ?? String(error)})`);
  }
  const inside = (path: string) => path === real || path.startsWith(real + sep);

  /**
   * The file a checked path names in the folder, following links only where they stay inside:
   * the file itself when it is there, else its folder, which must be there.
   */
  const locate = async (path: string): Promise<{ file: string; present: boolean }> => {
    const named = join(real, ...checkedPath(path).split('/'));
    if (!inside(named)) throw new FolderError(403, `${path}: outside the folder`);
    let present = false;
    let file = named;
    try {
      file = await realpath(named);
      present = true;
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw new FolderError(404, `${path}: cannot be reached (${codeOf(error) ?? String(error)})`);
    }
    if (!present) {
      let folder: string;
      try {
        folder = await realpath(dirname(named));
      } catch {
        throw new FolderError(404, `${path}: the folder ${dirname(path)}/ does not exist`);
      }
      if (!inside(folder)) throw new FolderError(403, `${path}: its folder leads outside the folder`);
      file = join(folder, basename(named));
    } else if (!inside(file)) throw new FolderError(403, `${path}: a link that leads outside the folder`);
    return { file, present };
  };

  /**
   * Per path, the graph text checked last and what the check found. A 10,000-node file takes the
   * check hundreds of ms, seconds on a busy machine, and the page's first screen waits on a list and
   * a read of it, then each save reads it back before writing: the same text is checked once.
   */
  const checked = new Map<string, Extract<FileRead, { kind: 'graph' }>>();
  const remember = (path: string, text: string, found: { name?: string; problem?: string }) => {
    const read = { kind: 'graph', text, ...found } as const;
    checked.set(path, read);
    return read;
  };

  /** A regular file's content (anything else, a named pipe included, is refused before it is read: UnsafePath). */
  const readWithin = async (file: string, path: string): Promise<FileRead> => {
    const handle = await openRegular(file, path);
    try {
      const { size } = await handle.stat();
      // A bigger file is listed (when it says it is a graph) with the limit as its problem, and never read whole.
      if (size > MAX_GRAPH_BYTES) {
        const head = Buffer.alloc(Math.min(HEAD_BYTES, size));
        await handle.read(head, 0, head.length, 0);
        return FORMAT_IN_HEAD.test(head.toString('utf8'))
          ? { kind: 'too-big', problem: `${path}: too large: ${megabytes(size)}, at most ${megabytes(LIMITS.textChars)} of text can be opened` }
          : { kind: 'other' };
      }
      const decoded = decodeText(await handle.readFile());
      if (!decoded.ok) return { kind: 'other' };
      const text = decoded.value;
      const known = checked.get(path);
      if (known?.text === text) return known;
      if (!saysGraph(text)) return { kind: 'other' };
      const parsed = parseGraph(text);
      return remember(path, text, parsed.ok ? { name: parsed.value.name } : { problem: `${path}: ${describeProblems(parsed.problems).split('\n')[0]}` });
    } finally {
      await handle.close();
    }
  };

  /** Listings by path, kept while the file's size and time are the same: a list reads only what changed. */
  const known = new Map<string, { mtimeMs: number; size: number; listing: GraphListing | null }>();

  const listFile = async (file: string, path: string): Promise<GraphListing | null> => {
    const stats = await stat(file);
    const cached = known.get(path);
    if (cached && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size) return cached.listing;
    const read = await readWithin(file, path).catch(() => ({ kind: 'other' }) as const);
    const listing: GraphListing | null =
      read.kind === 'other' ? null
      : read.kind === 'too-big' ? { path, savedAt: stats.mtimeMs, problem: read.problem }
      : { path, savedAt: stats.mtimeMs, ...(read.name === undefined ? {} : { name: read.name }), ...(read.problem ? { problem: read.problem } : {}) };
    known.set(path, { mtimeMs: stats.mtimeMs, size: stats.size, listing });
    return listing;
  };

  const walk = async (folder: string, depth: number, found: GraphListing[]) => {
    if (depth > MAX_DEPTH) return;
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (leftOut(entry.name)) continue;
      const full = join(folder, entry.name);
      // Links to folders are not followed (a loop, or a way out); a link to a file inside is listed.
      if (entry.isDirectory()) await walk(full, depth + 1, found);
      else if ((entry.isFile() || entry.isSymbolicLink()) && entry.name.toLowerCase().endsWith('.json')) {
        const path = relative(real, full).split(sep).join('/');
        try {
          const target = entry.isSymbolicLink() ? await realpath(full) : full;
          if (!inside(target)) continue;
          const listing = await listFile(target, path);
          if (listing) found.push(listing);
        } catch {
          // Gone meanwhile, or unreadable: not a graph file this page can open.
        }
      }
    }
  };

  const read: Folder['read'] = async (path) => {
    const { file, present } = await locate(path);
    if (!present) throw new FolderError(404, `${path}: no such file in the folder`);
    let content: FileRead;
    try {
      content = await readWithin(file, path);
    } catch (error) {
      if (error instanceof UnsafePath) throw new FolderError(403, error.message);
      throw new FolderError(404, `${path}: cannot be read (${codeOf(error) ?? String(error)})`);
    }
    if (content.kind === 'too-big') throw new FolderError(413, content.problem);
    if (content.kind === 'other') throw new FolderError(404, `${path}: not a Loopscope graph file (no "format": "${GRAPH_FORMAT}")`);
    return { text: content.text, savedAt: (await stat(file)).mtimeMs, ...(content.problem ? { problem: content.problem } : {}) };
  };

  /** Per file, the page the server last wrote it for and when: the change on disk at that time is tagged with it. */
  const writers = new Map<string, { by: string; savedAt: number }>();
  const write: Folder['write'] = async (path, text, { create = false, by } = {}) => {
    if (text.length > LIMITS.textChars) throw new FolderError(413, `${path}: too large: at most ${megabytes(LIMITS.textChars)} of text is written`);
    const parsed = parseGraph(text);
    if (!parsed.ok) throw new FolderError(400, `${path}: not written, the text is not a valid graph (${describeProblems(parsed.problems).split('\n')[0]})`);
    const { file, present } = await locate(path);
    if (present && create) throw new FolderError(409, `${path} already exists: choose another name`);
    if (present) {
      const content = await readWithin(file, path).catch(() => ({ kind: 'other' }) as const);
      if (content.kind === 'other') throw new FolderError(409, `${path} is not a Loopscope graph file: it is not written over`);
    }
    let written: string;
    try {
      // Where the path names it, through no link: one on the way is refused, even a link that stays inside.
      written = await writeInside(real, path, text, { create });
    } catch (error) {
      if (error instanceof UnsafePath) throw new FolderError(403, error.message);
      if (create && codeOf(error) === 'EEXIST') throw new FolderError(409, `${path} already exists: choose another name`);
      throw writeFailure(path, error);
    }
    // What the next read of the file finds unless someone else writes it meanwhile: checked just now.
    remember(path, text, { name: parsed.value.name });
    const savedAt = (await stat(written)).mtimeMs;
    if (by) writers.set(path, { by, savedAt });
    else writers.delete(path);
    return { savedAt };
  };

  const remove: Folder['remove'] = async (path) => {
    const { file, present } = await locate(path);
    if (!present) throw new FolderError(404, `${path}: no such file in the folder`);
    const content = await readWithin(file, path).catch(() => ({ kind: 'other' }) as const);
    if (content.kind === 'other') throw new FolderError(409, `${path} is not a Loopscope graph file: it is not deleted`);
    // The name in the folder goes, only when it is a regular file reached through no link.
    const named = await fileInside(real, path).catch((error: unknown) => {
      throw error instanceof UnsafePath ? new FolderError(403, error.message) : new FolderError(404, `${path}: cannot be reached (${codeOf(error) ?? String(error)})`);
    });
    await unlink(named.full).catch((error: unknown) => {
      throw new FolderError(500, `${path} could not be deleted (${codeOf(error) ?? String(error)})`);
    });
  };

  const watch: Folder['watch'] = async (onChange, { debounceMs = 60, onError } = {}) => {
    const timers = new Map<string, ReturnType<typeof setTimeout>>();
    const watcher = watchFiles(real, {
      ignoreInitial: true,
      followSymlinks: false,
      // Left out as the list leaves them out; the folder itself is never left out.
      ignored: (full, stats) => {
        const path = relative(real, full);
        if (path === '') return false;
        if (path.split(sep).some(leftOut)) return true;
        return stats?.isFile() === true && !path.toLowerCase().endsWith('.json');
      },
    });
    const changed = (full: string) => {
      const path = relative(real, full).split(sep).join('/');
      if (!path.toLowerCase().endsWith('.json')) return;
      clearTimeout(timers.get(path));
      timers.set(path, setTimeout(() => {
        timers.delete(path);
        void stat(full).then(
          (stats) => {
            const writer = writers.get(path);
            onChange({ path, kind: 'changed', savedAt: stats.mtimeMs, ...(writer?.savedAt === stats.mtimeMs ? { by: writer.by } : {}) });
          },
          () => onChange({ path, kind: 'removed' }),
        );
      }, debounceMs));
    };
    watcher.on('add', changed).on('change', changed).on('unlink', changed);
    if (onError) watcher.on('error', (error) => onError(error instanceof Error ? error : new Error(String(error))));
    await new Promise<void>((ready) => watcher.once('ready', () => ready()));
    return async () => {
      for (const timer of timers.values()) clearTimeout(timer);
      await watcher.close();
    };
  };

  return {
    root: real,
    list: async () => {
      const found: GraphListing[] = [];
      await walk(real, 0, found);
      found.sort((a, b) => a.path.localeCompare(b.path));
      const listed = new Set(found.map((listing) => listing.path));
      for (const path of known.keys()) if (!listed.has(path)) known.delete(path);
      for (const path of checked.keys()) if (!listed.has(path)) checked.delete(path);
      return found;
    },
    read,
    write,
    remove,
    watch,
  };
};
