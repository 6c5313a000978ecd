import { Panel, useReactFlow, useStore, type ReactFlowState } from '@xyflow/react';
import { takeView } from './fitRequest.ts';
import { FitViewIcon } from './icons.tsx';

const atMinZoom = (state: ReactFlowState) => state.transform[2] <= state.minZoom;
const atMaxZoom = (state: ReactFlowState) => state.transform[2] >= state.maxZoom;
const labels = (state: ReactFlowState) => state.ariaLabelConfig;

/**
 * Zoom in, zoom out and Fit View for the canvas of the nearest React Flow provider; a zoom takes the
 * view (fitRequest.ts). Drawn as React Flow's `Controls` draws them (its classes, names and icons),
 * but made here: React Flow is one module of the first screen's script, so any part of it used
 * anywhere is loaded with the first screen, and its `Controls` with their icons was 1.1 KB gzip of it.
 */
export function ZoomAndFit({ onFit }: { onFit: () => void }) {
  const { zoomIn, zoomOut } = useReactFlow();
  const minZoomReached = useStore(atMinZoom);
  const maxZoomReached = useStore(atMaxZoom);
  const ariaLabels = useStore(labels);
  return (
    <Panel className="react-flow__controls horizontal" position="bottom-left" data-testid="rf__controls" aria-label="Zoom and fit">
      <button
        type="button"
        className="react-flow__controls-button react-flow__controls-zoomin"
        title={ariaLabels['controls.zoomIn.ariaLabel']}
        aria-label={ariaLabels['controls.zoomIn.ariaLabel']}
        disabled={maxZoomReached}
        onClick={() => {
          void zoomIn();
          takeView();
        }}
      >
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M32 18.133H18.133V32h-4.266V18.133H0v-4.266h13.867V0h4.266v13.867H32z" /></svg>
      </button>
      <button
        type="button"
        className="react-flow__controls-button react-flow__controls-zoomout"
        title={ariaLabels['controls.zoomOut.ariaLabel']}
        aria-label={ariaLabels['controls.zoomOut.ariaLabel']}
        disabled={minZoomReached}
        onClick={() => {
          void zoomOut();
          takeView();
        }}
      >
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 5"><path d="M0 0h32v4.2H0z" /></svg>
      </button>
      <button type="button" className="react-flow__controls-button" onClick={onFit} aria-label="Fit View" title="Fit View: show the whole graph">
        <FitViewIcon size={16} aria-hidden="true" />
      </button>
    </Panel>
  );
}
