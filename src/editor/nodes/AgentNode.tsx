import { memo, useMemo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { outcomesOf } from '../../graph/index.ts';
import { useApp } from '../../store/index.ts';
import { selectProblemsByElement } from '../../store/problemsByElement.ts';
import { kindIconImage } from '../../ui/icons.tsx';
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

/** One component for every kind: the kind registry gives it colour, icon, outcomes and summary. */
function AgentNodeView({ id, data, selected }: NodeProps<AgentFlowNode>) {
  const toggleNodeBreakpoint = useApp((state) => state.toggleNodeBreakpoint);
  const problems = useApp((state) => selectProblemsByElement(state).nodes.get(id));
  const { node, definition, summary, isEntry, isFinally, visits, breakpoint } = data;
  const outcomes = useMemo(() => (definition.terminal ? null : outcomesOf(node)), [node, definition]);
  const handles = useMemo(() => handleStyles(node, outcomes ? [...outcomes, GENERAL_HANDLE] : []), [node, outcomes]);
  return (
    <div
      className={`agent-node${selected ? ' is-selected' : ''}${breakpoint ? ' has-breakpoint' : ''}${problems ? ` has-${problems.severity}` : ''}`}
      style={{ ...ROW_STYLE, '--kind-color': definition.color, height: nodeHeight(node) } as React.CSSProperties}
      data-kind={node.kind}
    >
      <NodeRunStatus id={id} />
      <Handle type="target" position={Position.Left} className="target-handle" style={handles.get(null)} />
      <div className="agent-node-head">
        <span className="agent-node-icon" aria-hidden="true" style={{ '--icon': kindIconImage(definition.icon, definition.color) } as React.CSSProperties} />
        <span className="agent-node-label" title={node.label ?? node.id}>{node.label ?? node.id}</span>
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
        <span className="agent-node-kind-name">
          {definition.title.toLowerCase()}
          {node.label && node.label !== node.id ? ` · ${id}` : ''}
        </span>
        {isEntry && <span className="entry-badge">entry</span>}
        {isFinally && <span className="entry-badge finally-badge" title="runs once after any early stop">finally</span>}
      </div>
      {summary.length > 0 && (
        <ul className="agent-node-summary">
          {summary.map((line) => (
            <li key={line} title={line}>{line}</li>
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
