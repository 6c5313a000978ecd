/**
 * The controllers of the runs on screen, by run id, and the live one (the run Step, Run and
 * Continue drive): a service handed to the store's run actions, so that the store keeps each run
 * as a plain value (`RunRecord`) and no controller lives in the actions' module state. Imported
 * traces have no controller.
 */
import type { LocalRunController } from '../runtime/controller.ts';

export interface RunRegistry {
  get(runId: number): LocalRunController | undefined;
  register(runId: number, controller: LocalRunController): void;
  remove(runId: number): void;
  /** Forgets every run, and the live one. */
  clear(): void;
  /** The run Step, Run and Continue drive, if any. */
  readonly live: LocalRunController | null;
  setLive(controller: LocalRunController | null): void;
}

export const createRunRegistry = (): RunRegistry => {
  const byRun = new Map<number, LocalRunController>();
  let live: LocalRunController | null = null;
  return {
    get: (runId) => byRun.get(runId),
    register: (runId, controller) => void byRun.set(runId, controller),
    remove: (runId) => void byRun.delete(runId),
    clear: () => {
      byRun.clear();
      live = null;
    },
    get live() {
      return live;
    },
    setLive: (controller) => {
      live = controller;
    },
  };
};

/** The page's registry, made once with the store. */
export const runRegistry = createRunRegistry();
