/**
 * The controllers of the runs on screen, by run id, and the live one (the run Step, Run and
 * Continue drive): a service handed to the store's run actions, so that the store keeps each run
 * as a plain value (`RunRecord`) and no controller lives in the actions' module state. A run in
 * the page has its `RunController`; a LangGraph server's open thread, its connection's
 * `ServerRun` (src/server/serverRun.ts); imported traces have none.
 */
import type { RunController } from '../runtime/controller.ts';

export interface RunRegistry {
  get(runId: number): RunController | undefined;
  register(runId: number, controller: RunController): void;
  remove(runId: number): void;
  /** Forgets every run, and the live one. */
  clear(): void;
  /** The run Step, Run and Continue drive, if any. */
  readonly live: RunController | null;
  setLive(controller: RunController | null): void;
}

export const createRunRegistry = (): RunRegistry => {
  const byRun = new Map<number, RunController>();
  let live: RunController | null = null;
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
