import { useState, type ReactNode } from 'react';
import { Panel, usePanelRef } from 'react-resizable-panels';
import { HidePanelIcon, ShowPanelIcon } from '../ui/icons.tsx';

/** How wide a collapsed panel stays: room for its name, written down the rail. */
export const RAIL_PX = 32;

/** Below this window width the panels that matter least start collapsed, so the timeline has room. */
export const NARROW_PX = 1400;
export const isNarrowWindow = () => (globalThis.innerWidth ?? NARROW_PX) < NARROW_PX;

interface RailPanelProps {
  id: string;
  /** Its name on the rail and on its buttons: `Scenarios (10)`. */
  title: string;
  defaultSize: string | number;
  minSize: number;
  /** Starts as a rail (a first visit on a narrow window); the splitter remembers the person's choice after that. */
  startCollapsed: boolean;
  children: ReactNode;
}

/**
 * A panel of a splitter group that collapses to a thin rail with its name on it: a click on the
 * rail (or Enter on it) opens the panel, Hide closes it, and the splitter still drags it either way.
 */
export function RailPanel({ id, title, defaultSize, minSize, startCollapsed, children }: RailPanelProps) {
  const panel = usePanelRef();
  const [collapsed, setCollapsed] = useState(startCollapsed);
  return (
    <Panel
      id={id}
      panelRef={panel}
      collapsible
      collapsedSize={RAIL_PX}
      minSize={minSize}
      defaultSize={startCollapsed ? RAIL_PX : defaultSize}
      onResize={(size) => setCollapsed(size.inPixels <= RAIL_PX + 1)}
    >
      {collapsed ? (
        <button type="button" className="panel-rail" aria-expanded="false" aria-label={`Show ${title}`} title={`Show ${title}`} onClick={() => panel.current?.expand()}>
          <ShowPanelIcon size={14} aria-hidden="true" />
          <span>{title}</span>
        </button>
      ) : (
        <div className="rail-panel-open">
          {children}
          <button type="button" className="panel-hide" aria-expanded="true" aria-label={`Hide ${title}`} title={`Hide ${title}`} onClick={() => panel.current?.collapse()}>
            <HidePanelIcon size={14} aria-hidden="true" />
          </button>
        </div>
      )}
    </Panel>
  );
}
