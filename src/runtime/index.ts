/**
 * The runtime's public face. The store loads it with `await import('../runtime/index.ts')`, so
 * LangGraph reaches the browser only when a run starts.
 */
// A run checks what skills answer and what people edit against the graph's schemas.
export * from './trace.ts';
export * from './controller.ts';
export { createController, runGraph, type HeadlessOptions } from './run.ts';
export { ask } from './session.ts';
export { applyScenario, causeOf, checkScenario, firstDivergence, nodeRan, runScenario, scenarioOutcome, ScenarioError, type ExpectationFailure, type ScenarioOutcome, type ScenarioResult } from './scenario.ts';
export { refusedRealSkill } from './apply-scenario.ts';
export { scenarioFromRun, type ScenarioDraft } from './record-scenario.ts';
export { evaluateWhen, chooseEdge } from './conditions.ts';
export { stateAfterStep } from './states.ts';
export { buildStateGraph, nodeNames } from './compile.ts';
export type { LoopscopeConfig } from './step.ts';
export { RetainingSaver, DEFAULT_RETENTION, type RetentionPolicy } from './checkpointer.ts';
export { initialValues, initialState, agentState, type RunValues, type RunLedger } from './state.ts';
export { GRAPH_METADATA_KEY } from './compile.ts';
