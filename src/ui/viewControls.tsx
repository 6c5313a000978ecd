import { Panel, useReactFlow, useStore, type ReactFlowState } from '@xyflow/react';
import { takeView } from './fitRequest.ts';
import { FitViewIcon } from './icons.tsx';

const atMinZoom = (state: ReactFlowState) => state.transform[2] <= state.minZoom;
const atMaxZoom = (state: ReactFlowState) => state.transform[2] >= state.maxZoom;
const labels = (state: ReactFlowState) => state.ariaLabelConfig;

/** One of the zoom buttons, as React Flow's `Controls` draws it (named by its store's labels); a zoom takes the view. */
function ZoomButton({ zoom, name, label, off, children }: { zoom: () => unknown; name: 'zoomin' | 'zoomout'; label: string; off: boolean; children: React.ReactNode }) {
  const onClick = () => {
    zoom();
    takeView();
  };
  return (
    <button type="button" className={`react-flow__controls-button react-flow__controls-${name}`} title={label} aria-label={label} disabled={off} onClick={onClick}>
      {children}
    </button>
  );
}

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
      <ZoomButton zoom={zoomIn} name="zoomin" label={ariaLabels['controls.zoomIn.ariaLabel']} off={maxZoomReached}>
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M32 18.133H18.133V32h-4.266V18.133H0v-4.266h13.867V0h4.266v13.867H32z" /></svg>
      </ZoomButton>
      <ZoomButton zoom={zoomOut} name="zoomout" label={ariaLabels['controls.zoomOut.ariaLabel']} off={minZoomReached}>
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 5"><path d="M0 0h32v4.2H0z" /></svg>
      </ZoomButton>
      <button type="button" className="react-flow__controls-button" onClick={onFit} aria-label="Fit View" title="Fit View: show the whole graph">
        <FitViewIcon size={16} aria-hidden="true" />
      </button>
    </Panel>
  );
}
