import { Controls, MiniMap } from '@xyflow/react';
import { kindDefinition } from '../graph/index.ts';
import type { AgentFlowNode } from './flowAdapter.ts';
import { FIT_OPTIONS } from './fit.ts';

const nodeColor = (node: AgentFlowNode) => kindDefinition(node.data.node.kind).color;

/**
 * Zoom, fit and the minimap, drawn beside the canvas rather than over it: nothing on the canvas is
 * ever hidden under them. They drive the canvas through the shared React Flow provider.
 */
export function ViewControls() {
  return (
    <section className="view-controls" aria-label="View">
      <Controls showInteractive={false} fitViewOptions={FIT_OPTIONS} orientation="horizontal" aria-label="Zoom and fit" />
      <MiniMap<AgentFlowNode> pannable zoomable nodeColor={nodeColor} ariaLabel="Minimap" />
    </section>
  );
}
