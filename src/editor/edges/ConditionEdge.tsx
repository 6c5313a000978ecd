import { memo } from 'react';
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from '@xyflow/react';
import { useApp } from '../../store/index.ts';
import { selectProblemsByElement } from '../../store/problemsByElement.ts';
import { ProblemMark } from '../ProblemMark.tsx';
import type { ConditionFlowEdge } from '../flowAdapter.ts';

/** How far below its ends a loop-back edge is routed, so it does not run through the nodes it skips. */
const LOOP_DROP = 90;

const loopPath = (sx: number, sy: number, tx: number, ty: number): [string, number, number] => {
  const bottom = Math.max(sy, ty) + LOOP_DROP;
  const path = `M ${sx},${sy} C ${sx + 120},${sy} ${sx + 120},${bottom} ${sx},${bottom} L ${tx},${bottom} C ${tx - 120},${bottom} ${tx - 120},${ty} ${tx},${ty}`;
  return [path, (sx + tx) / 2, bottom];
};

function ConditionEdgeView({ id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data, markerEnd, selected }: EdgeProps<ConditionFlowEdge>) {
  const toggleEdgeBreakpoint = useApp((state) => state.toggleEdgeBreakpoint);
  const problems = useApp((state) => selectProblemsByElement(state).edges.get(id));
  const goesBack = data?.backEdge && targetX < sourceX + 40;
  const [path, labelX, labelY] = goesBack
    ? loopPath(sourceX, sourceY, targetX, targetY)
    : getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
  const title = data?.notTaken ? `not taken: ${data.notTaken}` : data?.fired && data.firedReason ? `fired: ${data.firedReason}` : undefined;
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} interactionWidth={18} />
      <EdgeLabelRenderer>
        <div
          className={`edge-label nodrag nopan${data?.fired ? ' fired' : ''}${data?.notTaken ? ' not-taken' : ''}${data?.backEdge ? ' back' : ''}${selected ? ' is-selected' : ''}`}
          style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          title={title}
          data-edge-id={id}
          // The label is the easiest part of an edge to hit; clicking it selects the edge, shift adds to the selection.
          onClick={(event) => {
            const { selection, select } = useApp.getState();
            if (event.shiftKey) select({ edges: [...new Set([...selection.edges, id])] });
            else select({ nodes: [], edges: [id] });
          }}
        >
          {data?.breakpoint && <span className="breakpoint-dot" aria-label="breakpoint" />}
          {problems && <ProblemMark problems={problems} />}
          <span className="edge-condition">{data?.label}</span>
          {data?.note && <span className="edge-note">{data.note}</span>}
          {data?.fired && data.firedReason && data.firedReason !== data.label && <span className="edge-reason">{data.firedReason}</span>}
          {data?.notTaken && <span className="edge-why" aria-label={`not taken: ${data.notTaken}`}>✗</span>}
          {data && data.visits > 0 && <span className="heat-badge">×{data.visits}</span>}
          <button
            type="button"
            className={`breakpoint-toggle${data?.breakpoint ? ' on' : ''}`}
            aria-label={`Toggle breakpoint on edge ${id}`}
            aria-pressed={Boolean(data?.breakpoint)}
            title="Pause after this edge fires"
            onClick={(event) => {
              event.stopPropagation();
              toggleEdgeBreakpoint(id);
            }}
          />
        </div>
      </EdgeLabelRenderer>
    </>
  );
}

export const ConditionEdge = memo(ConditionEdgeView);
