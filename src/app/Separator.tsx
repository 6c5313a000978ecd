import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { resizedTo, toggled } from './splitResize.ts';
import type { GroupContext } from './Splitter.tsx';

/** How far one arrow key moves a separator: a twentieth of the group. */
const KEY_STEP = 0.05;

/**
 * The separator that resizes one panel of its group (the one its label names): drag it, or focus
 * it and use the arrow keys, Home and End; Enter collapses and opens a collapsible panel.
 */
export function Separator({ group, controls, label }: { group: GroupContext; controls: string; label: string }) {
  const { orientation, specs, layout, set, element } = group;
  const [active, setActive] = useState(false);
  const drag = useRef<{ from: number; startPx: number; groupPx: number; roomPx: number; sign: number } | null>(null);
  const spec = specs[controls];
  const state = layout[controls]!;
  const horizontal = orientation === 'horizontal';

  /** The group's length, the panel's, and the most the panel may take (its own and what the filling panel can spare). */
  const measure = () => {
    const group = element();
    const panel = document.getElementById(controls);
    const length = (box: DOMRect | undefined) => (box ? (horizontal ? box.width : box.height) : 0);
    const groupPx = length(group?.getBoundingClientRect());
    const panelPx = state.collapsed ? 0 : length(panel?.getBoundingClientRect());
    const [fillId, fill] = Object.entries(specs).find(([, other]) => !other.size) ?? [];
    const fillPx = fillId ? length(document.getElementById(fillId)?.getBoundingClientRect()) : 0;
    return { groupPx, panelPx, roomPx: panelPx + Math.max(0, fillPx - (fill?.min ?? 0)) };
  };
  /** A separator before its panel grows it when moved towards the start of the group. */
  const sign = (separator: HTMLElement) => {
    const panel = document.getElementById(controls);
    return panel && separator.compareDocumentPosition(panel) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  };
  const resize = (wantedPx: number, groupPx: number, roomPx: number) => set(controls, resizedTo(spec, state, wantedPx, groupPx, roomPx));

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    const { groupPx, panelPx, roomPx } = measure();
    drag.current = { from: horizontal ? event.clientX : event.clientY, startPx: panelPx, groupPx, roomPx, sign: sign(event.currentTarget) };
    setActive(true);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current) return;
    const moved = (horizontal ? event.clientX : event.clientY) - current.from;
    resize(current.startPx + current.sign * moved, current.groupPx, current.roomPx);
  };
  const onPointerEnd = () => {
    drag.current = null;
    setActive(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const forward = horizontal ? 'ArrowRight' : 'ArrowDown';
    const back = horizontal ? 'ArrowLeft' : 'ArrowUp';
    if (event.key === 'Enter') {
      event.preventDefault();
      if (spec.collapsible) set(controls, toggled(state));
      return;
    }
    if (![forward, back, 'Home', 'End'].includes(event.key)) return;
    event.preventDefault();
    const { groupPx, panelPx, roomPx } = measure();
    const step = groupPx * KEY_STEP * sign(event.currentTarget);
    const wanted = event.key === 'Home' ? spec.min : event.key === 'End' ? roomPx : panelPx + (event.key === forward ? step : -step);
    resize(wanted, groupPx, roomPx);
  };

  // The size the separator announces is the panel's, in its own unit (pixels or percent of the group): nothing is measured for it.
  const inPixels = 'px' in state.size;
  const valueNow = state.collapsed ? 0 : inPixels ? (state.size as { px: number }).px : Math.round((state.size as { percent: number }).percent);
  return (
    <div
      role="separator"
      tabIndex={0}
      className="splitter"
      aria-label={label}
      aria-controls={controls}
      aria-orientation={horizontal ? 'vertical' : 'horizontal'}
      aria-valuenow={valueNow}
      aria-valuemin={spec.collapsible || !inPixels ? 0 : spec.min}
      aria-valuemax={inPixels ? spec.max : 100}
      aria-valuetext={state.collapsed ? 'collapsed' : inPixels ? `${valueNow} pixels` : `${valueNow} percent`}
      data-separator={active ? 'active' : undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onLostPointerCapture={onPointerEnd}
      onKeyDown={onKeyDown}
    />
  );
}
