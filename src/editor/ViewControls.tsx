import { useCallback } from 'react';
import { requestFit } from '../ui/fitRequest.ts';
import { ZoomAndFit } from '../ui/viewControls.tsx';
import { useViewSlot } from '../ui/viewSlot.ts';
import { Minimap } from './Minimap.tsx';

/**
 * Zoom, fit and the minimap, drawn beside the canvas rather than over it: nothing on the canvas is
 * ever hidden under them. They drive the canvas through the shared React Flow provider; Fit View
 * asks the canvas, which fits all it draws (labels, loops, run chips) in the part nothing covers (fit.ts).
 * A canvas drawn over the editor's takes their place with its own (ui/viewControls.tsx).
 */
export function ViewControls() {
  const taken = useViewSlot((state) => state.taken);
  const slot = useCallback((element: HTMLElement | null) => {
    if (!element) return;
    useViewSlot.setState({ slot: element });
    return () => {
      if (useViewSlot.getState().slot === element) useViewSlot.setState({ slot: null });
    };
  }, []);
  return (
    <section className="view-controls" aria-label="View" ref={slot}>
      {!taken && (
        <>
          <ZoomAndFit onFit={requestFit} />
          <Minimap />
        </>
      )}
    </section>
  );
}
