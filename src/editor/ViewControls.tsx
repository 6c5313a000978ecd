import { Controls } from '@xyflow/react';
import { FIT_OPTIONS } from './fit.ts';
import { Minimap } from './Minimap.tsx';

/**
 * Zoom, fit and the minimap, drawn beside the canvas rather than over it: nothing on the canvas is
 * ever hidden under them. They drive the canvas through the shared React Flow provider.
 */
export function ViewControls() {
  return (
    <section className="view-controls" aria-label="View">
      <Controls showInteractive={false} fitViewOptions={FIT_OPTIONS} orientation="horizontal" aria-label="Zoom and fit" />
      <Minimap />
    </section>
  );
}
