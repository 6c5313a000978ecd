// The graph check that the page loads after its first screen, loaded before any test edits a graph.
import { useApp } from './store/index.ts';
import { loadChecks } from './store/problems.ts';

await loadChecks();
// And the store's run and scenario actions, which the page loads with the debugger's panels.
await useApp.getState().loadRunActions();
await useApp.getState().loadScenarioActions();
