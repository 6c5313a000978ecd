import { memo, useContext, useMemo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { outcomesOf } from '../../graph/index.ts';
import { useApp } from '../../store/index.ts';
import { selectProblemsByElement, type ElementProblems } from '../../store/problemsByElement.ts';
import { fontText } from '../../ui/endText.ts';
import { kindIconImage } from '../../ui/canvasIcons.tsx';
import { Shown } from '../../ui/Shown.tsx';
import { GENERAL_HANDLE, nodeTextId, type AgentFlowNode } from '../flowAdapter.ts';
import { CANVAS_TEXT, handleBoxes, mcpToolsOf, nodeHeight, nodeTitle, nodeWidth, NODE_BORDER_SIDE, NODE_ROWS, TITLE_CHROME, type Skills } from '../geometry.ts';
import { CanvasDrawing } from '../detail.ts';

/** The node's size and rows come from the geometry (its text sizes too, set on the canvas), so layout and label placement know where everything is. */
const ROW_STYLE = {
  '--row-head': `${NODE_ROWS.head}px`,
  '--row-kind': `${NODE_ROWS.kind}px`,
  '--row-tools': `${NODE_ROWS.tools}px`,
  '--row-summary': `${NODE_ROWS.summaryLine}px`,
  '--row-outcome': `${NODE_ROWS.outcome}px`,
  '--border-top': `${NODE_ROWS.borderTop}px`,
} as React.CSSProperties;

/**
 * Where each handle sits inside the node, from the geometry's boxes (relative to the node's outer
 * edge; the node's padding box starts inside its borders), as custom properties the node's CSS
 * places it by (a connection under way moves the target handle over the whole node: editor.css).
 * Placed by `left`/`top` rather than React Flow's centring transform, in no positioned row: a node
 * of a big graph is many elements, and each transformed or positioned one is more work for the
 * browser on every drag and pan frame.
 */
const handleStyles = (node: AgentFlowNode['data']['node'], skills: Skills, sources: readonly string[]) => {
  const styles = new Map<string | null, React.CSSProperties>();
  for (const box of handleBoxes(node, skills, sources))
    styles.set(box.id, { '--handle-x': `${box.x - NODE_BORDER_SIDE}px`, '--handle-y': `${box.y - NODE_ROWS.borderTop}px`, '--handle-width': `${box.width}px` } as React.CSSProperties);
  return styles;
};

/**
 * The node's text is ended in an ellipsis by script, to the room its row leaves it, rather than by
 * `text-overflow`, which needs a clipping box: a node of a big graph had three or more of those, and
 * each is paint chunks of its own that the browser sorts into layers again on every drag and pan
 * frame. The fonts and the rows' paddings, gaps and fixed widths are editor.css's (`.agent-node-head`,
 * `.agent-node-label`, `.agent-node-kind`, `.agent-node-summary`, `.problem-mark`, the badges).
 */
const titleFont = fontText((family) => `650 ${CANVAS_TEXT.title}px ${family}`);
const rowFont = fontText((family) => `${CANVAS_TEXT.body}px ${family}`);
const badgeFont = fontText((family) => `700 ${CANVAS_TEXT.body}px ${family}`);
const GAP = 6;
const BADGE_PADDING = 10;
const PROBLEM_MARK = 16;
/** A row's room for text: the node less its borders and the rows' padding. */
const rowWidth = (width: number) => width - 2 * NODE_BORDER_SIDE - 2 * 8;

const badgeRoom = (text: string) => GAP + badgeFont.width(text) + BADGE_PADDING;
/**
 * The kind row holds the node's marks (entry, finally, the run's count, its problems) beside the
 * kind's name, which gives way to them: the title has the head to itself, and is as wide as the
 * node was made for it (geometry.ts, nodeWidth), so neither a run nor a problem cuts it.
 */
const kindRoom = (width: number, isEntry: boolean, isFinally: boolean, visits: number, hasProblems: boolean) =>
  rowWidth(width) - (isEntry ? badgeRoom('entry') : 0) - (isFinally ? badgeRoom('finally') : 0) - (visits > 0 ? badgeRoom(`×${visits}`) : 0) - (hasProblems ? PROBLEM_MARK + GAP : 0);

const nodeClass = (selected: boolean, breakpoint: boolean, problems: ElementProblems | undefined, outline: boolean) =>
  `agent-node${outline ? ' outline' : ''}${selected ? ' is-selected' : ''}${breakpoint ? ' has-breakpoint' : ''}${problems ? ` has-${problems.severity}` : ''}`;

/** One component for every kind: the kind registry gives it colour, icon, outcomes and summary. */
function AgentNodeView({ id, data, selected }: NodeProps<AgentFlowNode>) {
  const problems = useApp((state) => selectProblemsByElement(state).nodes.get(id));
  const { outline, later: extras, marks, statuses } = useContext(CanvasDrawing);
  const { node, skills, definition, summary, isEntry, isFinally, visits, breakpoint } = data;
  const sources = useMemo(() => (definition.terminal ? [] : [...outcomesOf(node), GENERAL_HANDLE]), [node, definition]);
  const handles = useMemo(() => handleStyles(node, skills, sources), [node, skills, sources]);
  // Measured, cut and told as the canvas draws it (geometry.ts, nodeTitle); drawn from the label itself, its escapes set apart.
  const title = nodeTitle(node);
  const width = nodeWidth(node);
  const style = { ...ROW_STYLE, '--kind-color': definition.color, width, height: nodeHeight(node, skills) } as React.CSSProperties;
  const sourceHandle = (handle: string, text: boolean) => (
    <Handle
      key={handle}
      type="source"
      position={Position.Right}
      id={handle}
      className={handle === GENERAL_HANDLE ? 'outcome-row general' : 'outcome-row'}
      title={handle === GENERAL_HANDLE ? 'edge with a condition or always' : `outcome ${handle}`}
      style={handles.get(handle)}
    >
      {text ? (handle === GENERAL_HANDLE ? 'condition' : handle) : null}
    </Handle>
  );
  // Zoomed out (detail.ts).
  if (outline && extras)
    return <extras.OutlineNode className={nodeClass(selected, breakpoint, problems, true)} style={style} title={title} room={rowWidth(width)} target={handles.get(null)} sources={sources.map((handle) => sourceHandle(handle, false))} />;
  const kindName = `${definition.title.toLowerCase()}${node.label && node.label !== node.id ? ` · ${id}` : ''}`;
  const shownTitle = titleFont.end(title, width - TITLE_CHROME);
  const shownKindName = rowFont.end(kindName, kindRoom(width, isEntry, isFinally, visits, problems !== undefined));
  return (
    <div className={nodeClass(selected, breakpoint, problems, false)} style={style} data-kind={node.kind}>
      {statuses && <statuses.NodeRunStatus id={id} />}
      <Handle type="target" position={Position.Left} className="target-handle" style={handles.get(null)} />
      <div className="agent-node-head">
        <span className="agent-node-icon icon-image" aria-hidden="true" style={{ '--icon': kindIconImage(definition.icon, definition.color) } as React.CSSProperties} />
        <span className="agent-node-label" id={nodeTextId(id, 'title')} title={title}>
          {shownTitle === title ? (
            <Shown text={node.label ?? node.id} />
          ) : (
            // A title cut short is read whole: the node's name is how people and tests find it.
            <>
              <span aria-hidden="true">{shownTitle}</span>
              <span className="agent-node-label-whole"><Shown text={node.label ?? node.id} /></span>
            </>
          )}
        </span>
      </div>
      <div className="agent-node-kind">
        <span className="agent-node-kind-name" title={shownKindName === kindName ? undefined : kindName}>{shownKindName}</span>
        {isEntry && <span className="entry-badge">entry</span>}
        {isFinally && <span className="entry-badge finally-badge" title="runs once after any early stop">finally</span>}
        {visits > 0 && <span className="heat-badge" title={`ran ${visits} times in this run`}>×{visits}</span>}
        {problems && marks && <marks.ProblemMark problems={problems} />}
      </div>
      {mcpToolsOf(node, skills).length > 0 && (
        // Its room is the geometry's from the first frame; what it says comes with the canvas's later parts.
        <div className="agent-node-tools" id={nodeTextId(id, 'tools')}>
          {extras && <extras.ToolsRow node={node} skills={skills} room={rowWidth(width)} font={rowFont} />}
        </div>
      )}
      {summary.length > 0 && (
        // One element for all the lines: a node of a big graph is many elements, and each costs every frame.
        <div className="agent-node-summary" title={summary.join('\n')}>
          {summary.map((line) => rowFont.end(line, rowWidth(width))).join('\n')}
        </div>
      )}
      {sources.length > 0 && <div className="agent-node-outcomes">{sources.map((handle) => sourceHandle(handle, true))}</div>}
      {/* The node's breakpoint, in a place of its own: the top right corner, where no handle is and no label goes (geometry.ts, nodeObstacles). */}
      {extras && <extras.BreakpointToggle id={id} on={breakpoint} />}
    </div>
  );
}

/**
 * Drawn again only when what it draws changes: React Flow hands a node its place on the canvas too
 * (`positionAbsoluteX`/`Y`, `dragging`), which change on every move of a drag, and the node's
 * drawing (its text measured and cut to its rows) then ran on each move where bare React Flow's
 * node costs nothing. The place is the wrapper's transform, not this component's (a node keeps its id:
 * React Flow keys its wrapper by it).
 */
const sameDrawing = (before: NodeProps<AgentFlowNode>, after: NodeProps<AgentFlowNode>) => before.data === after.data && before.selected === after.selected;

export const AgentNode = memo(AgentNodeView, sameDrawing);
