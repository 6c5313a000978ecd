/** Scenarios (SPEC §4): overrides of a graph, and the expectations its trace must meet. */
import type { GraphFile, Scenario } from '../graph/index.ts';
import { readPath } from '../skills/index.ts';
import { runGraph, type HeadlessOptions } from './run.ts';
export { applyScenario, ScenarioError } from './apply-scenario.ts';
import { applyScenario } from './apply-scenario.ts';
import { nodeRan, type Trace } from './trace.ts';

export { nodeRan } from './trace.ts';

const executed = (trace: Trace) => trace.steps.filter(nodeRan);

const count = (values: string[], key: string) => values.filter((value) => value === key).length;

/** Every expectation the trace misses, as a sentence; empty when the scenario passes. */
export const checkScenario = (trace: Trace, scenario: Scenario): string[] => {
  const { expect } = scenario;
  const failures: string[] = [];
  const ran = executed(trace);
  const path = ran.map((step) => step.node);
  const compare = (what: string, expected: unknown, actual: unknown) => {
    if (expected !== undefined && JSON.stringify(expected) !== JSON.stringify(actual))
      failures.push(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  };
  compare('stopReason', expect.stopReason, trace.stopReason);
  compare('rounds', expect.rounds, trace.rounds);
  compare('steps', expect.steps, ran.length);
  compare('tokensUsed', expect.tokensUsed, trace.tokensUsed);
  for (const [node, expected] of Object.entries(expect.attempts ?? {}))
    compare(`attempts of ${node}`, expected, ran.filter((step) => step.node === node).reduce((sum, step) => sum + step.attempts.length, 0));
  for (const [node, expected] of Object.entries(expect.visits ?? {})) compare(`visits of ${node}`, expected, count(path, node));
  compare('path', expect.path, expect.path ? path : undefined);
  for (const { path: field, value } of expect.state ?? []) compare(`state ${field}`, value, readPath(trace.finalState, field));
  return failures;
};

export interface ScenarioResult {
  scenario: Scenario;
  trace: Trace;
  failures: string[];
}

export const runScenario = async (graph: GraphFile, scenario: Scenario, options: HeadlessOptions = {}): Promise<ScenarioResult> => {
  const trace = await runGraph(applyScenario(graph, scenario), { ...options, seed: scenario.seed ?? options.seed });
  const named = { ...trace, scenario: scenario.name };
  return { scenario, trace: named, failures: checkScenario(named, scenario) };
};
