import type { StateCreator } from 'zustand';
import type { GraphSlice } from './graphSlice.ts';
import type { RunSlice } from './runSlice.ts';

export type AppState = GraphSlice & RunSlice;
export type SliceCreator<T> = StateCreator<AppState, [], [], T>;
