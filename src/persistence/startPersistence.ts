/**
 * Starts keeping the library. Apart from persistence.ts, which the saver (autosave.ts) and the
 * library's actions import: persistence.ts loading the saver made their imports a cycle.
 */
import { keepPersistence, newPersistence, type PersistenceOptions } from './persistence.ts';

/**
 * Keeps the library: reads the open graph's save (restoreLastGraph) and, from `savingFrom` on,
 * saves the open graph after every change (autosave.ts). Returns a stop function.
 */
export const startPersistence = ({ savingFrom = Promise.resolve(), ...options }: PersistenceOptions = {}) => {
  const persistence = newPersistence(options);
  persistence.saving = savingFrom
    .then(() => import('./autosave.ts'))
    .then(({ startSaving }) => (persistence.stopped ? null : (persistence.saver = startSaving(persistence))));
  const letGo = keepPersistence(persistence);
  return () => {
    persistence.stopped = true;
    persistence.saver?.stop();
    letGo();
  };
};
