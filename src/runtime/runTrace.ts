/**
 * The trace of a Loopscope run read from its channel values, the one reading both executors make:
 * a run in the page from the values it holds (run.ts), a LangGraph server's thread of a Loopscope
 * export from its newest checkpoint's (serverTrace.ts). Its ledger (`_run`) says the seed, the
 * rounds and why the run stopped; the rest of the values not the runtime's are the final state.
 */
import { agentState, type RunLedger, type Stop } from './state.ts';
import { TRACE_FORMAT, TRACE_VERSION, type Trace, type TraceStep } from './trace.ts';

/** `values` may be a checkpoint's, read from elsewhere: what its ledger does not say takes a fresh run's value. */
export const traceOfValues = (graph: string, values: Readonly<Record<string, unknown>>, steps: TraceStep[], finalState = agentState(values)): Trace => {
  // A server running an export made before stops were data keeps its stop in words.
  const run = values._run as (Partial<Pick<RunLedger, 'seed' | 'roundsRan'>> & { stop?: Stop | { reason: string; explain: string } | null }) | undefined;
  return {
    format: TRACE_FORMAT, version: TRACE_VERSION, graph, seed: run?.seed ?? 1,
    stopReason: run?.stop?.reason ?? null, rounds: run?.roundsRan ?? 0, tokensUsed: Number(values.tokensUsed ?? 0),
    finalState, steps, ...(!run?.stop ? {} : 'why' in run.stop ? { stopWhy: run.stop.why } : { stopExplain: run.stop.explain }),
  };
};
