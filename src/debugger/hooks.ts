import { useApp } from '../store/index.ts';

/** The run the panels show (not necessarily the live one). */
export const useActiveRun = () => useApp((state) => state.runs.find((run) => run.id === state.activeRunId));

/** The selected step of the shown run. */
export const useSelectedStep = () =>
  useApp((state) => {
    const run = state.runs.find((candidate) => candidate.id === state.activeRunId);
    return run && state.selectedStep !== null ? run.trace.steps[state.selectedStep - 1] : undefined;
  });

export const nodeLabel = (graph: { nodes: readonly { id: string; label?: string }[] }, id: string) =>
  graph.nodes.find((node) => node.id === id)?.label ?? id;
