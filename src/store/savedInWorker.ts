/**
 * The early read's worker side (saved.worker.ts), in a module of its own so that it is tested
 * without a worker: reads this tab's saved graph from the library, parses it as any save is
 * parsed and finds its problems.
 */
import { parseGraph, validateGraph } from '../graph/index.ts';
import type { EarlyRead, SavedRequest } from './earlyRead.ts';
import { readSaved } from './libraryDb.ts';

export const answerSaved = async ({ id }: SavedRequest, factory: IDBFactory | undefined): Promise<EarlyRead | null> => {
  const saved = factory ? await readSaved(factory, id) : null;
  if (!saved) return null;
  const parsed = saved.entry ? parseGraph(saved.entry.text) : null;
  return { ...saved, parsed, problems: parsed?.ok ? validateGraph(parsed.value) : null };
};
