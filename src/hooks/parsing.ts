/** A large file parsed off the page's thread: an import, a share link, a trace file (src/hooks/library.ts says why a module of its own). */
export { parseOffThread } from '../persistence/offThread.ts';
