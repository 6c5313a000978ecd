import { create } from 'zustand';
import { createGraphSlice } from './graphSlice.ts';
import { createRunSlice } from './runSlice.ts';
import type { AppState } from './types.ts';

export type { AppState } from './types.ts';
export type { GraphSlice, Selection } from './graphSlice.ts';
export { newDocumentId } from './graphSlice.ts';
export type { CanvasOverlay, RunSlice } from './runSlice.ts';

/** The one store of the app, made of slices. */
export const useApp = create<AppState>()((...args) => ({
  ...createGraphSlice(...args),
  ...createRunSlice(...args),
}));
