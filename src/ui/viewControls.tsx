import { ControlButton, Controls } from '@xyflow/react';
import { create } from 'zustand';
import { takeView } from './fitRequest.ts';
import { FitViewIcon } from './icons.tsx';

/**
 * Where the view controls sit (beside the canvas, editor/ViewControls.tsx), and whether a canvas
 * drawn over the editor's (a server's LangGraph graph, debugger/server/ServerCanvas.tsx) has taken
 * them: zoom, fit and the minimap then drive the canvas on screen, not the one hidden under it.
 */
export const useViewSlot = create<{ slot: HTMLElement | null; taken: boolean }>(() => ({ slot: null, taken: false }));

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
