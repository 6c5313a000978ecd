import type { StateCreator } from 'zustand';
import type { GraphSlice } from './graphSlice.ts';
import type { RunSlice } from './runSlice.ts';
import type { ScenarioSlice } from './scenarioSlice.ts';

export type AppState = GraphSlice & RunSlice & ScenarioSlice;
export type SliceCreator<T> = StateCreator<AppState, [], [], T>;
