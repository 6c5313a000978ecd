/**
 * The parts of the canvas its first screen does not draw, loaded just after its first commit
 * (Canvas.tsx): the breakpoint toggles (a node's shows on hover, an edge's while it is selected),
 * the mark of an edge a run tried and did not take, and the outline drawn when zoomed out (detail.ts).
 */
import { Handle, Position } from '@xyflow/react';
import { useApp } from '../store/index.ts';
import FailIcon from 'lucide-react/icons/x';
import { fontText } from '../ui/endText.ts';

/** A breakpoint's toggle: a node's, on its corner, or an edge's, in its label (the edge's own menu). */
export function BreakpointToggle({ id, on, edge }: { id: string; on: boolean; edge?: boolean }) {
  const toggle = useApp((state) => (edge ? state.toggleEdgeBreakpoint : state.toggleNodeBreakpoint));
  return (
    <button
      type="button"
      className={`breakpoint-toggle nodrag${on ? ' on' : ''}`}
      aria-label={`Toggle breakpoint on ${edge ? 'edge ' : ''}${id}`}
      aria-pressed={on}
      title={on ? 'Remove breakpoint' : edge ? 'Pause after this edge fires' : 'Pause before this node runs'}
      onClick={(event) => {
        event.stopPropagation();
        toggle(id);
      }}
    />
  );
}

/** The outline's title: big enough to read on a zoomed-out canvas (editor.css, `.agent-node.outline`). */
const outlineFont = fontText((family) => `650 26px ${family}`);

/** A node zoomed out: its title and its handles, so the graph's shape and names still read and edges still attach. */
export function OutlineNode({ className, style, title, room, target, sources }: { className: string; style: React.CSSProperties; title: string; room: number; target: React.CSSProperties | undefined; sources: React.ReactNode }) {
  return (
    <div className={className} style={style}>
      <Handle type="target" position={Position.Left} className="target-handle" style={target} />
      <span className="agent-node-label" title={title}>{outlineFont.end(title, room)}</span>
      {sources}
    </div>
  );
}

/** An edge zoomed out: its line in one piece (drawn solid there, it needs no parts) and no label. */
export function OutlineEdge({ id, path, markerEnd, interaction }: { id: string; path: string; markerEnd: string | undefined; interaction: number }) {
  return (
    <>
      <path id={id} d={path} fill="none" className="react-flow__edge-path" markerEnd={markerEnd} />
      <path d={path} fill="none" strokeOpacity={0} strokeWidth={interaction} className="react-flow__edge-interaction" />
    </>
  );
}

/** An edge a run's step tried and did not take, and why. */
export function NotTakenMark({ why }: { why: string }) {
  return <FailIcon className="edge-why" size={14} role="img" aria-label={`not taken: ${why}`} />;
}
