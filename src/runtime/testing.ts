/** Helpers for the runtime's tests: fixture graphs edited in place, traces compared without timings. */
import type { GraphFile, GraphNode } from '../graph/schema.ts';
import { nodeRan, type Trace } from './trace.ts';

/** A trace (or a step) without the only fields allowed to differ between two runs of one seed. */
export const withoutTimings = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, inner: unknown) => (key === 'durationMs' ? undefined : inner)));

export const nodeOf = <K extends GraphNode['kind']>(graph: GraphFile, id: string, kind: K): Extract<GraphNode, { kind: K }> => {
  const node = graph.nodes.find((candidate) => candidate.id === id);
  if (!node || node.kind !== kind) throw new Error(`no ${kind} node ${id}`);
  return node as Extract<GraphNode, { kind: K }>;
};

export const executedNodes = (trace: Trace) => trace.steps.filter(nodeRan).map((step) => step.node);

export { securityclawAnswers, securityclawOver, startCountingService, type CountingService } from './countingService.ts';
