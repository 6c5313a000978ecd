/** Helpers for the runtime's tests: fixture graphs edited in place, traces compared without timings. */
import type { GraphFile, GraphNode } from '../graph/schema.ts';
import { runStopWords } from './stepWords.ts';
import { nodeRan, type Trace } from './trace.ts';

/** A trace (or a step) without the only fields allowed to differ between two runs of one seed. */
export const withoutTimings = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, inner: unknown) => (key === 'durationMs' ? undefined : inner)));

export const nodeOf = <K extends GraphNode['kind']>(graph: GraphFile, id: string, kind: K): Extract<GraphNode, { kind: K }> => {
  const node = graph.nodes.find((candidate) => candidate.id === id);
  if (!node || node.kind !== kind) throw new Error(`no ${kind} node ${id}`);
  return node as Extract<GraphNode, { kind: K }>;
};

/** The trace with its stop in words, as a trace made before stops were data held them (`stopExplain`). */
export const withStopWords = (trace: Trace) => ({ ...trace, stopExplain: runStopWords(trace) });

export const executedNodes = (trace: Trace) => trace.steps.filter(nodeRan).map((step) => step.node);

/** A fetch that plays an OpenAI-compatible llm answering `texts` in turn, keeping the prompt of each call in `prompts`. */
export const scriptedLlm = (texts: string[]) => {
  const prompts: string[] = [];
  const fetch = (async (_url: string, init: RequestInit) => {
    prompts.push((JSON.parse(String(init.body)) as { messages: { content: string }[] }).messages[0].content);
    return new Response(JSON.stringify({ choices: [{ message: { content: texts.shift() } }], usage: { total_tokens: 7 } }));
  }) as unknown as typeof globalThis.fetch;
  return { fetch, prompts };
};

export { securityclawAnswers, securityclawOver, startCountingService, type CountingService } from './countingService.ts';
