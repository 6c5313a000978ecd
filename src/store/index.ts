import { create } from 'zustand';
import { createGraphSlice } from './graphSlice.ts';
import { createRunSlice } from './runSlice.ts';
import { createScenarioSlice } from './scenarioSlice.ts';
import type { AppState } from './types.ts';

export type { AppState } from './types.ts';
export type { ForeignGraph, GraphSlice, Selection } from './graphSlice.ts';
export { FOREIGN_EDIT_NOTE, foreignDocumentId, newDocumentId } from './graphSlice.ts';
export type { CanvasOverlay, CanvasParting, RunSlice } from './runSlice.ts';
export type { RunPair, ScenarioRunResult, ScenarioSlice } from './scenarioSlice.ts';

/** The one store of the app, made of slices. */
export const useApp = create<AppState>()((...args) => ({
  ...createGraphSlice(...args),
  ...createRunSlice(...args),
  ...createScenarioSlice(...args),
}));
