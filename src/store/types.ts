import type { StateCreator, StoreApi } from 'zustand';
import type { GraphSlice } from './graphSlice.ts';
import type { RunSlice } from './runSlice.ts';
import type { ScenarioSlice } from './scenarioSlice.ts';

export type AppState = GraphSlice & RunSlice & ScenarioSlice;
export type SliceCreator<T> = StateCreator<AppState, [], [], T>;
/** The store's own set and get, for actions made outside its slices (runActions.ts, scenarioActions.ts). */
export type SetApp = StoreApi<AppState>['setState'];
export type GetApp = StoreApi<AppState>['getState'];
