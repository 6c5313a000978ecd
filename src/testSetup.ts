// The unit tests start as Node's entries do: zod given to the graph layer's schemas, and the graph
// check that the page loads after its first screen loaded before any test edits a graph.
import './graph/zodProvided.ts';
import { useApp } from './store/index.ts';
import { loadChecks } from './store/problems.ts';

await loadChecks();
// And the store's run and scenario actions, which the page loads with the debugger's panels.
await useApp.getState().loadRunActions();
await useApp.getState().loadScenarioActions();
