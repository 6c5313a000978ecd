import { useState, type ChangeEvent } from 'react';
import { describeProblems, serializeGraph, type GraphFile, type ParseResult } from '../graph/index.ts';
import { parseGraph } from '../graph/parse.ts';
import { useApp } from '../store/index.ts';
import { useActiveRun } from './hooks.ts';
import { parseOffThread } from '../hooks/parsing.ts';
import { serializeTrace, type Trace } from '../runtime/trace.ts';

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
    // The trace's own graph, read once. It opens as soon as the whole file is checked: a big trace's
    // steps take a while longer to reach the page, and the graph they ran on shows meanwhile. It
    // opens beside the others (nothing is replaced), unless it is the one open.
    let graph: { read: ParseResult<GraphFile> | undefined; opened: boolean } | null = null;
    const readGraph = (trace: Trace) => (graph ??= { read: trace.graphFile === undefined ? undefined : parseGraph(trace.graphFile), opened: false });
    /** Whether it opened the trace's graph now. */
    const openGraph = (trace: Trace) => {
      const own = readGraph(trace);
      if (!own.read?.ok || own.opened) return false;
      own.opened = true;
      const { graph: open, load } = useApp.getState();
      if (serializeGraph(open) === serializeGraph(own.read.value)) return false;
      load(own.read.value);
      return true;
    };
    const parsed = await parseOffThread({ kind: 'trace', file }, openGraph);
    input.value = '';
    if (!parsed.ok) {
      setImportError(`Could not import ${file.name}: ${describeProblems(parsed.problems)}`);
      return;
    }
    const { read } = readGraph(parsed.value);
    if (read && !read.ok) {
      setImportError(`Could not import ${file.name}: ${describeProblems(read.problems.map((problem) => ({ ...problem, path: `graphFile${problem.path ? `.${problem.path}` : ''}` })))}`);
      return;
    }
    setImportError(null);
    // Its graph drawn and painted first (a frame, then the task after it), as when it opened while the steps came: then the run on it.
    if (openGraph(parsed.value)) await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    // The trace is read and accepted: from here the app shows its run (the bench times the timeline's render from this mark).
    performance.mark(TRACE_ACCEPTED);
    loadTrace(parsed.value, { file, ...(read ? { graph: read.value } : {}) });
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
