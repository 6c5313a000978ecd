/**
 * The parts of the canvas its first screen does not draw, loaded just after its first commit
 * (Canvas.tsx): the breakpoint toggles (a node's shows on hover, an edge's while it is selected),
 * the mark of an edge a run tried and did not take, the outline drawn when zoomed out (detail.ts),
 * and what a node's tools row says (the MCP tools it calls; the row's room is the geometry's).
 */
import { Handle, Position } from '@xyflow/react';
import { useMemo } from 'react';
import { __iconData as lockIcon } from 'lucide-react/icons/lock';
import { __iconData as pencilIcon } from 'lucide-react/icons/pencil';
import { __iconData as squareTerminalIcon } from 'lucide-react/icons/square-terminal';
import { __iconData as triangleAlertIcon } from 'lucide-react/icons/triangle-exclamation-point';
import type { GraphNode } from '../graph/index.ts';
import { visibleText } from '../graph/visible.ts';
import type { AccessLevel } from '../graph/mcpAccess.ts';
import { useApp } from '../store/index.ts';
import { listedTool, useMcpTools } from '../hooks/mcpTools.ts';
import FailIcon from 'lucide-react/icons/x';
import { iconImage } from '../ui/canvasIcons.tsx';
import { fontText } from '../ui/endText.ts';
import type { Skills } from './geometry.ts';
import { toolCallsOf, toolsRowText, type AccessMark } from './nodes/toolCalls.ts';

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
  return <FailIcon className="edge-why" size={14} role="img" aria-label={`not taken: ${visibleText(why)}`} />;
}

/**
 * A mark's icon and colour (styles.css's --ok, --warn and --danger, as the marks' text in editor.css):
 * a lock for read, a pencil for write (a warning sign when the tool says it is destructive), a terminal for exec.
 */
const MARK_LOOKS: Record<AccessLevel, { drawing: typeof lockIcon.node; color: string }> = {
  read: { drawing: lockIcon.node, color: '#34d399' },
  write: { drawing: pencilIcon.node, color: '#fbbf24' },
  exec: { drawing: squareTerminalIcon.node, color: '#f87171' },
};
const DESTRUCTIVE = { drawing: triangleAlertIcon.node, color: '#f87171' };
/** A mark's icon and the gaps around it, in flow pixels (editor.css, `.access-mark`). */
const MARK_CHROME = 6 + 12 + 3;

const markLook = (mark: AccessMark) => (mark.destructive ? DESTRUCTIVE : MARK_LOOKS[mark.access]);

/**
 * What a node's tools row says: the tool it calls (its server before it when there is room) or how
 * many, and the access they need, each level a mark with its icon, a write clearly not a read. Its
 * accessible name says every tool, server and access (it also names the node: flowAdapter.ts).
 */
export function ToolsRow({ node, skills, room, font }: { node: GraphNode; skills: Skills; room: number; font: ReturnType<typeof fontText> }) {
  const servers = useMcpTools((state) => state.servers);
  const text = useMemo(() => toolsRowText(toolCallsOf(node, skills, (server, tool) => listedTool(servers, server, tool))), [node, skills, servers]);
  const labelRoom = room - text.marks.reduce((sum, mark) => sum + MARK_CHROME + font.width(mark.text), 0);
  const withServer = text.server && `${text.server} · ${text.label}`;
  // One tool's name is ended to its room; "3 tools" is left out when the marks ("2 read", "1 write") leave it none.
  const label = withServer && font.width(withServer) <= labelRoom ? withServer : !text.several || font.width(text.label) <= labelRoom ? font.end(text.label, labelRoom) : '';
  return (
    <span className="tools-row" role="img" aria-label={text.spoken} title={text.detail}>
      <span className="tools-label">{label}</span>
      {text.marks.map((mark) => (
        <span
          key={mark.access}
          className={`access-mark access-${mark.destructive ? 'destructive' : mark.access}`}
          style={{ '--icon': iconImage(`tool ${mark.destructive ? 'destructive' : mark.access}`, markLook(mark).drawing, markLook(mark).color) } as React.CSSProperties}
        >
          {mark.text}
        </span>
      ))}
    </span>
  );
}
