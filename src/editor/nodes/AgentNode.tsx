import { memo, useMemo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { outcomesOf } from '../../graph/index.ts';
import { useApp } from '../../store/index.ts';
import { selectProblemsByElement } from '../../store/problemsByElement.ts';
import { fontText } from '../../ui/endText.ts';
import { kindIconImage } from '../../ui/canvasIcons.tsx';
import { ProblemMark } from '../ProblemMark.tsx';
import { GENERAL_HANDLE, type AgentFlowNode } from '../flowAdapter.ts';
import { handleBoxes, nodeHeight, NODE_BORDER_SIDE, NODE_ROWS, NODE_WIDTH } from '../geometry.ts';
import { NodeRunStatus } from './NodeRunStatus.tsx';

/** The node's size and rows come from the geometry, so layout and label placement know where everything is. */
const ROW_STYLE = {
  '--node-width': `${NODE_WIDTH}px`,
  '--row-head': `${NODE_ROWS.head}px`,
  '--row-kind': `${NODE_ROWS.kind}px`,
  '--row-summary': `${NODE_ROWS.summaryLine}px`,
  '--row-outcome': `${NODE_ROWS.outcome}px`,
  '--border-top': `${NODE_ROWS.borderTop}px`,
} as React.CSSProperties;

/**
 * Where each handle sits inside the node, from the geometry's boxes (relative to the node's outer
 * edge; the node's padding box starts inside its borders). Placed by `left`/`top` rather than React
 * Flow's centring transform, in no positioned row: a node of a big graph is many elements, and each
 * transformed or positioned one is more work for the browser on every drag and pan frame.
 */
const handleStyles = (node: AgentFlowNode['data']['node'], sources: readonly string[]) => {
  const styles = new Map<string | null, React.CSSProperties>();
  for (const box of handleBoxes(node, sources)) styles.set(box.id, { left: box.x - NODE_BORDER_SIDE, top: box.y - NODE_ROWS.borderTop, right: 'auto', bottom: 'auto', transform: 'none' });
  return styles;
};

/**
 * The node's text is ended in an ellipsis by script, to the room its row leaves it, rather than by
 * `text-overflow`, which needs a clipping box: a node of a big graph had three or more of those, and
 * each is paint chunks of its own that the browser sorts into layers again on every drag and pan
 * frame. The fonts and the rows' paddings, gaps and fixed widths are editor.css's (`.agent-node-head`,
 * `.agent-node-label`, `.agent-node-kind`, `.agent-node-summary`, `.problem-mark`, the badges).
 */
const titleFont = fontText((family) => `650 16px ${family}`);
const rowFont = fontText((family) => `12px ${family}`);
const entryBadgeFont = fontText((family) => `700 11px ${family}`);
const heatBadgeFont = fontText((family) => `700 10px ${family}`);
const GAP = 6;
const BADGE_PADDING = 10;
const ROW_WIDTH = NODE_WIDTH - 2 * NODE_BORDER_SIDE - 2 * 8;
/** The head's padding (8 left, 2 right) and the kind icon with its gap. */
const TITLE_WIDTH = NODE_WIDTH - 2 * NODE_BORDER_SIDE - 8 - 2 - 18 - GAP;
const PROBLEM_MARK = 16;
const FINALLY_MARGIN = 4;

const titleRoom = (hasProblems: boolean, visits: number) =>
  TITLE_WIDTH - (hasProblems ? PROBLEM_MARK + GAP : 0) - (visits > 0 ? heatBadgeFont.width(`×${visits}`) + BADGE_PADDING + GAP : 0);
const kindRoom = (isEntry: boolean, isFinally: boolean) =>
  ROW_WIDTH - (isEntry ? GAP + entryBadgeFont.width('ENTRY') + BADGE_PADDING : 0) - (isFinally ? GAP + FINALLY_MARGIN + entryBadgeFont.width('FINALLY') + BADGE_PADDING : 0);

/** One component for every kind: the kind registry gives it colour, icon, outcomes and summary. */
function AgentNodeView({ id, data, selected }: NodeProps<AgentFlowNode>) {
  const toggleNodeBreakpoint = useApp((state) => state.toggleNodeBreakpoint);
  const problems = useApp((state) => selectProblemsByElement(state).nodes.get(id));
  const { node, definition, summary, isEntry, isFinally, visits, breakpoint } = data;
  const outcomes = useMemo(() => (definition.terminal ? null : outcomesOf(node)), [node, definition]);
  const handles = useMemo(() => handleStyles(node, outcomes ? [...outcomes, GENERAL_HANDLE] : []), [node, outcomes]);
  const title = node.label ?? node.id;
  const kindName = `${definition.title.toLowerCase()}${node.label && node.label !== node.id ? ` · ${id}` : ''}`;
  const shownTitle = titleFont.end(title, titleRoom(problems !== undefined, visits));
  const shownKindName = rowFont.end(kindName, kindRoom(isEntry, isFinally));
  return (
    <div
      className={`agent-node${selected ? ' is-selected' : ''}${breakpoint ? ' has-breakpoint' : ''}${problems ? ` has-${problems.severity}` : ''}`}
      style={{ ...ROW_STYLE, '--kind-color': definition.color, height: nodeHeight(node) } as React.CSSProperties}
      data-kind={node.kind}
    >
      <NodeRunStatus id={id} />
      <Handle type="target" position={Position.Left} className="target-handle" style={handles.get(null)} />
      <div className="agent-node-head">
        <span className="agent-node-icon icon-image" aria-hidden="true" style={{ '--icon': kindIconImage(definition.icon, definition.color) } as React.CSSProperties} />
        <span className="agent-node-label" title={title}>
          {shownTitle === title ? (
            title
          ) : (
            // A title cut short is read whole: the node's name is how people and tests find it.
            <>
              <span aria-hidden="true">{shownTitle}</span>
              <span className="agent-node-label-whole">{title}</span>
            </>
          )}
        </span>
        {problems && <ProblemMark problems={problems} />}
        {visits > 0 && <span className="heat-badge" title={`ran ${visits} times in this run`}>×{visits}</span>}
        <button
          type="button"
          className={`breakpoint-toggle nodrag${breakpoint ? ' on' : ''}`}
          aria-label={`Toggle breakpoint on ${id}`}
          aria-pressed={breakpoint}
          title={breakpoint ? 'Remove breakpoint' : 'Pause before this node runs'}
          onClick={(event) => {
            event.stopPropagation();
            toggleNodeBreakpoint(id);
          }}
        />
      </div>
      <div className="agent-node-kind">
        <span className="agent-node-kind-name" title={shownKindName === kindName ? undefined : kindName}>{shownKindName}</span>
        {isEntry && <span className="entry-badge">entry</span>}
        {isFinally && <span className="entry-badge finally-badge" title="runs once after any early stop">finally</span>}
      </div>
      {summary.length > 0 && (
        <ul className="agent-node-summary">
          {summary.map((line) => (
            <li key={line} title={line}>{rowFont.end(line, ROW_WIDTH)}</li>
          ))}
        </ul>
      )}
      {outcomes && (
        <ul className="agent-node-outcomes">
          {outcomes.map((outcome) => (
            <li key={outcome} className="outcome-row">
              {outcome}
              <Handle type="source" position={Position.Right} id={outcome} className="outcome-handle" title={`outcome ${outcome}`} style={handles.get(outcome)} />
            </li>
          ))}
          <li className="outcome-row general">
            condition
            <Handle type="source" position={Position.Right} id={GENERAL_HANDLE} className="general-handle" title="edge with a condition or always" style={handles.get(GENERAL_HANDLE)} />
          </li>
        </ul>
      )}
    </div>
  );
}

export const AgentNode = memo(AgentNodeView);
