import { memo, useContext } from 'react';
import { createPortal } from 'react-dom';
import type { EdgeProps } from '@xyflow/react';
import { useApp } from '../../store/index.ts';
import { selectProblemsByElement } from '../../store/problemsByElement.ts';
import { FailIcon } from '../../ui/canvasIcons.tsx';
import { ProblemMark } from '../ProblemMark.tsx';
import type { ConditionFlowEdge } from '../flowAdapter.ts';
import { edgeRoute, LABEL_FONT, LABEL_LINE } from '../geometry.ts';
import { EdgeLabelLayer } from './labelLayer.ts';
import { useEdgeLayout } from './layoutStore.ts';

/** How wide an edge is to the pointer, in flow pixels. */
const INTERACTION_WIDTH = 18;

/** An edge drawn on the route the geometry gives it, its label where the layout placed it. */
function ConditionEdgeView({ id, sourceX, sourceY, targetX, targetY, data, markerEnd, selected }: EdgeProps<ConditionFlowEdge>) {
  const toggleEdgeBreakpoint = useApp((state) => state.toggleEdgeBreakpoint);
  const problems = useApp((state) => selectProblemsByElement(state).edges.get(id));
  const labelLayer = useContext(EdgeLabelLayer);
  const { loopY, place } = useEdgeLayout(id);
  const route = edgeRoute({ x: sourceX, y: sourceY }, { x: targetX, y: targetY }, loopY);
  const centre = route.at(place.t);
  const title = data?.notTaken ? `not taken: ${data.notTaken}` : data?.fired && data.firedReason ? `fired: ${data.firedReason}` : undefined;
  const reason = data?.fired && data.firedReason && data.firedReason !== data.label ? data.firedReason : null;
  return (
    <>
      {/* BaseEdge's two paths, the drawn one in its parts (geometry.ts, EdgeRoute.parts). */}
      {route.parts.map((part, index) => (
        <path
          key={index}
          id={index === 0 ? id : undefined}
          d={part.d}
          fill="none"
          className="react-flow__edge-path"
          style={part.startsAt ? { strokeDashoffset: part.startsAt } : undefined}
          markerEnd={index === route.parts.length - 1 ? markerEnd : undefined}
        />
      ))}
      <path d={route.path} fill="none" strokeOpacity={0} strokeWidth={INTERACTION_WIDTH} className="react-flow__edge-interaction" />
      {labelLayer && createPortal(
        // The label is centred on its place by a zero-size anchor there rather than by a transform:
        // each transformed element is more work for the browser on every drag and pan frame.
        <div className="edge-label-anchor" style={{ left: centre.x + place.dx, top: centre.y + place.dy }}>
          <div
            className={`edge-label nodrag nopan${data?.fired ? ' fired' : ''}${data?.notTaken ? ' not-taken' : ''}${data?.backEdge ? ' back' : ''}${selected ? ' is-selected' : ''}`}
            style={{ fontSize: LABEL_FONT, '--label-line': `${LABEL_LINE}px` } as React.CSSProperties}
            title={title}
            data-edge-id={id}
            // The label is the easiest part of an edge to hit; clicking it selects the edge, shift adds to the selection.
            onClick={(event) => {
              const { selection, select } = useApp.getState();
              if (event.shiftKey) select({ edges: [...new Set([...selection.edges, id])] });
              else select({ nodes: [], edges: [id] });
            }}
          >
            <span className="edge-label-line">
              {data?.breakpoint && <span className="breakpoint-dot" aria-label="breakpoint" role="img" />}
              {problems && <ProblemMark problems={problems} />}
              <span className="edge-condition">{data?.label}</span>
              {data?.notTaken && <FailIcon className="edge-why" size={14} role="img" aria-label={`not taken: ${data.notTaken}`} />}
              {data && data.visits > 0 && <span className="heat-badge">×{data.visits}</span>}
            </span>
            {data?.note && <span className="edge-note">{data.note}</span>}
            {reason && <span className="edge-reason">{reason}</span>}
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
        </div>,
        labelLayer,
      )}
    </>
  );
}

export const ConditionEdge = memo(ConditionEdgeView);
