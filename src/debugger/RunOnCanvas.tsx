import { useReactFlow, useStoreApi } from '@xyflow/react';
import { useEffect } from 'react';
import { sameBehaviour } from '../graph/behaviour.ts';
import type { GraphFile } from '../graph/schema.ts';
import { useApp, type AppState } from '../store/index.ts';
import { personHoldsView, viewRevealing } from './reveal.ts';
import { ScenarioMarks } from './ScenarioWatch.tsx';

/**
 * Brings the node of the selected step into view on every step shown (a step, a step selected in
 * the timeline, the live run's progress), by the rule of reveal.ts: only when it is out of view, and
 * never while a person works the canvas or just after, unless they have turned to something else since.
 */
const useFollowSelectedStep = () => {
  const flow = useStoreApi();
  const { setViewport, getInternalNode } = useReactFlow();
  useEffect(() => {
    let lastGestureAt: number | null = null;
    let holding = false;
    const onCanvas = (event: Event) => event.target instanceof Element && event.target.closest('.react-flow') !== null;
    // A press elsewhere (Step, a step of the timeline) or a key (F10) says the person has turned
    // from the canvas to the run: what they ask to see is brought into view at once (issue 53).
    const turnAway = () => void (lastGestureAt = null);
    const press = (event: Event) => {
      if (!onCanvas(event)) return turnAway();
      holding = true;
      lastGestureAt = performance.now();
    };
    const wheel = (event: Event) => {
      if (onCanvas(event)) lastGestureAt = performance.now();
    };
    const letGo = () => {
      if (!holding) return;
      holding = false;
      lastGestureAt = performance.now();
    };
    const reveal = (id: string | null | undefined) => {
      if (!id || personHoldsView(performance.now(), lastGestureAt, holding)) return;
      const node = getInternalNode(id);
      if (!node) return;
      const { transform, width, height } = flow.getState();
      const box = { ...node.internals.positionAbsolute, width: node.measured.width ?? node.width ?? 0, height: node.measured.height ?? node.height ?? 0 };
      const next = viewRevealing(box, { x: transform[0], y: transform[1], zoom: transform[2] }, { width, height });
      if (next) void setViewport(next);
    };
    // Every paint of a step makes a new overlay: the step shown changed, or the run went on.
    const stopFollowing = useApp.subscribe((state, previous) => {
      if (state.overlay !== previous.overlay) reveal(state.overlay?.currentNode);
    });
    // The canvas changed size (the layout switched, a panel moved): once it has fitted its view to it, the node is brought back.
    let frame = 0;
    const stopWatchingSize = flow.subscribe((state, previous) => {
      if (state.width === previous.width && state.height === previous.height) return;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => (frame = requestAnimationFrame(() => reveal(useApp.getState().overlay?.currentNode))));
    });
    document.addEventListener('pointerdown', press, true);
    document.addEventListener('keydown', turnAway, true);
    document.addEventListener('wheel', wheel, { capture: true, passive: true });
    window.addEventListener('pointerup', letGo, true);
    window.addEventListener('pointercancel', letGo, true);
    return () => {
      stopFollowing();
      stopWatchingSize();
      cancelAnimationFrame(frame);
      document.removeEventListener('pointerdown', press, true);
      document.removeEventListener('keydown', turnAway, true);
      document.removeEventListener('wheel', wheel, true);
      window.removeEventListener('pointerup', letGo, true);
      window.removeEventListener('pointercancel', letGo, true);
    };
  }, [flow, setViewport, getInternalNode]);
};

/** The last answer, kept: the store's selectors run at every change, and the graph changes far less often. */
let compared: { ran: GraphFile; open: GraphFile; same: boolean } | null = null;
const ranOnAnotherVersion = (state: AppState): number | null => {
  const run = state.runs.find((candidate) => candidate.id === state.activeRunId);
  if (!run) return null;
  if (compared?.ran !== run.graph || compared.open !== state.graph) compared = { ran: run.graph, open: state.graph, same: sameBehaviour(run.graph, state.graph) };
  return compared.same ? null : run.id;
};

/**
 * What the debugger adds to the canvas: the selected step's node kept in view, and, when the run
 * shown ran on an earlier version of the graph (a condition, a config, the wiring changed since),
 * a note saying so, while its marks on the canvas are dimmed (debugger.css): they are what that
 * version did, not what this one would. And the marks of the scenarios re-run on each edit (ScenarioWatch.tsx).
 */
export function RunOnCanvas() {
  useFollowSelectedStep();
  const staleRun = useApp(ranOnAnotherVersion);
  return (
    <>
      <ScenarioMarks />
      {staleRun !== null && (
        <p className="stale-run-note" role="note">
          Run {staleRun} ran on an earlier version of this graph: its marks are dimmed. Run again to see what this version does.
        </p>
      )}
    </>
  );
}
