import { useReactFlow } from '@xyflow/react';
import { useState } from 'react';
import type { Problem } from '../graph/index.ts';
import { Shown } from '../ui/Shown.tsx';
import { useApp } from '../store/index.ts';
import { savingStarted, useAutosave } from '../hooks/saving.ts';
import { ErrorIcon, WarningIcon } from '../ui/icons.tsx';

const FOCUS_MS = 400;
/**
 * Problems listed at first, and added by each "Show more": a big graph can have thousands, and
 * drawing them all would hold up opening it (tens of elements each) for a list nobody reads whole.
 * A few panels' worth: a hundred was half the elements of the page opening a 1,000-node graph,
 * laid out and styled before its first frame.
 */
export const PROBLEMS_PAGE = 25;

function AutosaveAlert() {
  const { error, restoreError } = useAutosave();
  if (!error && !restoreError) return null;
  return (
    <div role="alert" className="autosave-alert">
      <div>
        {[restoreError, error].filter(Boolean).map((text) => (
          <p key={text}>{text}</p>
        ))}
      </div>
      {error && (
        <button type="button" onClick={() => void savingStarted().then((saver) => saver?.saveNow())}>
          Retry
        </button>
      )}
      <button type="button" onClick={() => useAutosave.setState({ error: null, restoreError: null })} aria-label="Dismiss autosave message">
        Dismiss
      </button>
    </div>
  );
}

/** The live validation of the graph; a problem leads to its node or edge. */
export function ProblemsPanel() {
  const problems = useApp((state) => state.problems);
  const foreign = useApp((state) => state.foreign !== null);
  const edges = useApp((state) => state.graph.edges);
  const select = useApp((state) => state.select);
  const { fitView } = useReactFlow();
  const [shown, setShown] = useState(PROBLEMS_PAGE);
  const errors = problems?.filter((problem) => problem.severity === 'error').length ?? 0;

  const reveal = (problem: Problem) => {
    const edge = problem.edgeId ? edges.find((candidate) => candidate.id === problem.edgeId) : undefined;
    if (edge) {
      select({ nodes: [], edges: [edge.id] });
      void fitView({ nodes: [{ id: edge.source }, { id: edge.target }], duration: FOCUS_MS, maxZoom: 1.2 });
    } else if (problem.nodeId) {
      select({ nodes: [problem.nodeId], edges: [] });
      void fitView({ nodes: [{ id: problem.nodeId }], duration: FOCUS_MS, maxZoom: 1.2 });
    }
  };

  return (
    <section className="problems" aria-label="Problems">
      <AutosaveAlert />
      <h2>
        Problems {problems && <span className="count">({problems.length})</span>}
      </h2>
      {foreign ? (
        <p className="field-help">Problems are checked for Loopscope graphs only: this is a LangGraph graph drawn from its server, which checks its own code.</p>
      ) : problems === null ? (
        // A graph just opened is drawn first; its check follows once the page is idle (at most half a second).
        <p className="field-help">Checking the graph…</p>
      ) : problems.length === 0 ? (
        <p className="field-help">No problems: every outcome is routed and every node is reachable.</p>
      ) : (
        <>
          <p className="field-help">
            {errors} error{errors === 1 ? '' : 's'}, {problems.length - errors} warning{problems.length - errors === 1 ? '' : 's'}
          </p>
          <ul className="problem-list">
            {problems.slice(0, shown).map((problem, index) => (
              <li key={`${problem.code}:${problem.nodeId ?? ''}:${problem.edgeId ?? ''}:${index}`}>
                <button type="button" className={`problem problem-${problem.severity}`} disabled={!problem.nodeId && !problem.edgeId} onClick={() => reveal(problem)}>
                  <span className="problem-icon" role="img" aria-label={problem.severity}>
                    {problem.severity === 'error' ? <ErrorIcon size={14} aria-hidden="true" /> : <WarningIcon size={14} aria-hidden="true" />}
                  </span>
                  <code>{problem.code}</code> <span><Shown text={problem.message} /></span>
                </button>
              </li>
            ))}
          </ul>
          {problems.length > shown && (
            <button type="button" className="problems-more" onClick={() => setShown((count) => count + PROBLEMS_PAGE)}>
              Show {Math.min(PROBLEMS_PAGE, problems.length - shown)} more of {problems.length - shown}
            </button>
          )}
        </>
      )}
    </section>
  );
}
