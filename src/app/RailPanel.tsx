import type { ReactNode } from 'react';
import { HidePanelIcon, ShowPanelIcon } from '../ui/canvasIcons.tsx';
import { SplitPanel, useSplitPanel } from './Splitter.tsx';

/** How wide a collapsed panel stays: room for its name, written down the rail. */
export const RAIL_PX = 32;

/** Below this window width the panels that matter least start collapsed, so the timeline has room. */
export const NARROW_PX = 1400;
export const isNarrowWindow = () => (globalThis.innerWidth ?? NARROW_PX) < NARROW_PX;

interface RailPanelProps {
  id: string;
  /** Its name on the rail and on its buttons: `Scenarios (10)`. */
  title: string;
  children: ReactNode;
}

/**
 * A panel of a splitter group (its sizes given to the group, `collapsedSize: RAIL_PX`) that
 * collapses to a thin rail with its name on it: a click on the rail (or Enter on it) opens the
 * panel, Hide closes it, and the splitter still drags it either way.
 */
export function RailPanel({ id, title, children }: RailPanelProps) {
  const { collapsed, setCollapsed } = useSplitPanel(id);
  return (
    <SplitPanel id={id}>
      {collapsed ? (
        <button type="button" className="panel-rail" aria-expanded="false" aria-label={`Show ${title}`} title={`Show ${title}`} onClick={() => setCollapsed(false)}>
          <ShowPanelIcon size={14} />
          <span>{title}</span>
        </button>
      ) : (
        <div className="rail-panel-open">
          {children}
          <button type="button" className="panel-hide" aria-expanded="true" aria-label={`Hide ${title}`} title={`Hide ${title}`} onClick={() => setCollapsed(true)}>
            <HidePanelIcon size={14} />
          </button>
        </div>
      )}
    </SplitPanel>
  );
}
