import { memo, useContext } from 'react';
import { createPortal } from 'react-dom';
import type { EdgeProps } from '@xyflow/react';
import { visibleText } from '../../graph/visible.ts';
import { useApp } from '../../store/index.ts';
import { Shown } from '../../ui/Shown.tsx';
import { selectProblemsByElement } from '../../store/problemsByElement.ts';
import type { ConditionFlowEdge } from '../flowAdapter.ts';
import { edgeRoute, LABEL_FONT, LABEL_LINE } from '../geometry.ts';
import { CanvasDrawing } from '../detail.ts';
import { EdgeLabelLayer } from './labelLayer.ts';
import { unplaced, useEdgeLayout } from './layoutStore.ts';

/** How wide an edge is to the pointer, in flow pixels. */
const INTERACTION_WIDTH = 18;

/**
 * An end of an edge to the half flow pixel. React Flow measures a node's handles again when it
 * mounts, though the node declares them (flowAdapter.ts, handlesOf), and the measure differs from
 * the declared place by float noise (1774 as 1773.99974): every edge of a node coming into view was
 * drawn again, which repainted the whole canvas on every frame of a pan over a big graph. The geometry
 * places handles on whole and half pixels, so this keeps the declared place.
 */
const snapped = (value: number) => Math.round(value * 2) / 2;

/** An edge drawn on the route the geometry gives it, its label where the layout placed it. */
/**
 * How far above its line goes a label no placement gave a spot (one shown only while its edge is
 * selected, or of a graph too big to place labels): clear of the line's ends, where the reconnect
 * anchors of a short edge would be under it.
 */
const SELECTED_LABEL_RISE = 24;

function ConditionEdgeView({ id, sourceX, sourceY, targetX, targetY, data, markerEnd, selected }: EdgeProps<ConditionFlowEdge>) {
  const problems = useApp((state) => selectProblemsByElement(state).edges.get(id));
  const labelLayer = useContext(EdgeLabelLayer);
  const { outline, later: extras, marks } = useContext(CanvasDrawing);
  const { loopY, place } = useEdgeLayout(id);
  const route = edgeRoute({ x: snapped(sourceX), y: snapped(sourceY) }, { x: snapped(targetX), y: snapped(targetY) }, loopY);
  // Zoomed out (detail.ts).
  if (outline && extras) return <extras.OutlineEdge id={id} path={route.path} markerEnd={markerEnd} interaction={INTERACTION_WIDTH} />;
  const centre = route.at(place?.t ?? 0.5);
  const title = data?.notTaken ? `not taken: ${visibleText(data.notTaken)}` : data?.fired && data.firedReason ? `fired: ${visibleText(data.firedReason)}` : undefined;
  const reason = data?.fired && data.firedReason && data.firedReason !== data.label ? data.firedReason : null;
  const visits = data?.visits ?? 0;
  // The edge's own menu: its breakpoint toggle, while it is selected, in the room its label keeps for it.
  const toggle = selected && extras && <extras.BreakpointToggle id={id} on={Boolean(data?.breakpoint)} edge />;
  const badged = Boolean(toggle || data?.breakpoint || problems || data?.notTaken || visits > 0);
  // An edge its drawing names (flowAdapter.ts, saidByDrawing) has a label only when there is more to say.
  const labelled = !data?.quiet || loopY !== null || reason || data.notTaken || data.breakpoint || problems || selected;
  return (
    <>
      {/* BaseEdge's two paths, the drawn one in its parts (ui/edgeGeometry.ts, EdgeRoute.parts). */}
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
      {/* A label placed off its edge (no room on it) is tied to its point on the edge (ui/labelPlacement.ts, farSpot). */}
      {labelLayer && labelled && place && (place.dx !== 0 || place.dy !== 0) && <path d={`M ${centre.x},${centre.y} L ${centre.x + place.dx},${centre.y + place.dy}`} className="edge-leader" />}
      {labelLayer && labelled && place && createPortal(
        // The label is centred on its place by a zero-size anchor there rather than by a transform:
        // each transformed element is more work for the browser on every drag and pan frame.
        <div className="edge-label-anchor" style={{ left: centre.x + place.dx, top: centre.y + place.dy - (selected && unplaced(place) ? SELECTED_LABEL_RISE : 0) }}>
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
            {badged ? (
              <span className="edge-label-line">
                {toggle}
                {data?.breakpoint && !toggle && <span className="breakpoint-dot" aria-label="breakpoint" role="img" />}
                {problems && marks && <marks.ProblemMark problems={problems} />}
                {data && <Shown text={data.label} />}
                {data?.notTaken && extras && <extras.NotTakenMark why={data.notTaken} />}
                {visits > 0 && <span className="heat-badge">×{visits}</span>}
              </span>
            ) : (
              // A label with nothing beside its condition is one element: a big graph has many labels.
              data && <Shown text={data.label} />
            )}
            {data?.note && <span className="edge-note"><Shown text={data.note} /></span>}
            {reason && <span className="edge-reason"><Shown text={reason} /></span>}
          </div>
        </div>,
        labelLayer,
      )}
    </>
  );
}

export const ConditionEdge = memo(ConditionEdgeView);
