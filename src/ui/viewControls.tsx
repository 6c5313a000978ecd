import { ControlButton, Controls } from '@xyflow/react';
import { takeView } from './fitRequest.ts';
import { FitViewIcon } from './icons.tsx';

/** Zoom in, zoom out and Fit View for the canvas of the nearest React Flow provider; a zoom takes the view (fitRequest.ts). */
export function ZoomAndFit({ onFit }: { onFit: () => void }) {
  return (
    <Controls showInteractive={false} showFitView={false} orientation="horizontal" aria-label="Zoom and fit" onZoomIn={takeView} onZoomOut={takeView}>
      <ControlButton onClick={onFit} aria-label="Fit View" title="Fit View: show the whole graph">
        <FitViewIcon size={16} aria-hidden="true" />
      </ControlButton>
    </Controls>
  );
}
