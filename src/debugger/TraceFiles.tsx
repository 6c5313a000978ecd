import { useState, type ChangeEvent } from 'react';
import { describeProblems, parseGraph, serializeGraph } from '../graph/index.ts';
import { useApp } from '../store/index.ts';
import { useActiveRun } from './hooks.ts';
import { parseOffThread } from '../store/offThread.ts';
import { serializeTrace } from '../runtime/trace.ts';

/** The User Timing mark set when an imported trace has been read and accepted, before the app shows it. */
export const TRACE_ACCEPTED = 'loopscope:trace-accepted';

const fileName = (graph: string, runId: number) => `${graph.replace(/[^\w-]+/g, '-').toLowerCase()}-run-${runId}.trace.json`;

/** Export trace (the SPEC §2 JSON of the shown run) and Import trace (replayed with no skill called). */
export function TraceFiles() {
  const run = useActiveRun();
  const loadTrace = useApp((state) => state.loadTrace);
  const status = useApp((state) => state.runStatus);
  const [importError, setImportError] = useState<string | null>(null);

  const exportTrace = () => {
    if (!run) return;
    // The graph goes with the trace, so whoever imports it sees the run on the graph it ran on.
    const withGraph = { ...run.trace, graphFile: JSON.parse(serializeGraph(run.graph)) as Record<string, unknown> };
    const blob = new Blob([serializeTrace(withGraph)], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName(run.trace.graph, run.id);
    link.click();
    URL.revokeObjectURL(url);
  };

  const importTrace = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    const parsed = await parseOffThread({ kind: 'trace', file });
    input.value = '';
    if (!parsed.ok) {
      setImportError(`Could not import ${file.name}: ${describeProblems(parsed.problems)}`);
      return;
    }
    const { graphFile } = parsed.value;
    const graph = graphFile === undefined ? undefined : parseGraph(graphFile);
    if (graph && !graph.ok) {
      setImportError(`Could not import ${file.name}: ${describeProblems(graph.problems.map((problem) => ({ ...problem, path: `graphFile${problem.path ? `.${problem.path}` : ''}` })))}`);
      return;
    }
    setImportError(null);
    // The trace is read and accepted: from here the app opens it (the bench times the timeline's render from this mark).
    performance.mark(TRACE_ACCEPTED);
    if (graph) {
      // Its own graph opens beside the others (nothing is replaced), unless it is the one open.
      const { graph: open, load } = useApp.getState();
      if (serializeGraph(open) !== serializeGraph(graph.value)) load(graph.value);
    }
    loadTrace(parsed.value, { file, ...(graph ? { graph: graph.value } : {}) });
  };

  return (
    <span className="trace-files">
      <button type="button" onClick={exportTrace} disabled={!run || status === 'running'}>Export trace</button>
      <label className="file-button">
        Import trace
        <input type="file" accept=".json,application/json" aria-label="Import trace" onChange={(event) => void importTrace(event)} />
      </label>
      {importError && (
        <span role="alert" className="trace-error">
          {importError} <button type="button" onClick={() => setImportError(null)} aria-label="Dismiss trace import error">Dismiss</button>
        </span>
      )}
    </span>
  );
}
