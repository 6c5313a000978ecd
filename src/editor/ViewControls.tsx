import { ControlButton, Controls } from '@xyflow/react';
import { FitViewIcon } from '../ui/icons.tsx';
import { requestFit } from '../ui/fitRequest.ts';
import { Minimap } from './Minimap.tsx';

/**
 * Zoom, fit and the minimap, drawn beside the canvas rather than over it: nothing on the canvas is
 * ever hidden under them. They drive the canvas through the shared React Flow provider; Fit View
 * asks the canvas, which fits all it draws (labels, loops, run chips) in the part nothing covers (fit.ts).
 */
export function ViewControls() {
  return (
    <section className="view-controls" aria-label="View">
      <Controls showInteractive={false} showFitView={false} orientation="horizontal" aria-label="Zoom and fit">
        <ControlButton onClick={requestFit} aria-label="Fit View" title="Fit View: show the whole graph">
          <FitViewIcon size={16} aria-hidden="true" />
        </ControlButton>
      </Controls>
      <Minimap />
    </section>
  );
}
