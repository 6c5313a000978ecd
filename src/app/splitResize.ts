/** The arithmetic of moving a separator (Separator.tsx): not needed to lay the shell out, so not in splitLayout.ts. */
import type { PanelSize, PanelSpec, PanelState } from './splitLayout.ts';

/** A length in the unit the panel's size is given in. */
const inUnitOf = (unit: PanelSize, px: number, groupPx: number): PanelSize =>
  'px' in unit ? { px: Math.round(px) } : { percent: groupPx > 0 ? Math.round((px / groupPx) * 1000) / 10 : unit.percent };

/**
 * A panel dragged (or moved from the keyboard) to `wantedPx`: within its minimum and maximum and
 * what the group can give it; below half its minimum a collapsible panel collapses.
 */
export const resizedTo = (spec: PanelSpec, current: PanelState, wantedPx: number, groupPx: number, roomPx: number): PanelState => {
  const max = Math.min(spec.max ?? Number.POSITIVE_INFINITY, roomPx);
  if (wantedPx < spec.min) {
    if (spec.collapsible && wantedPx < spec.min / 2) return { ...current, collapsed: true };
    return { size: inUnitOf(spec.size ?? current.size, Math.min(spec.min, max), groupPx), collapsed: false };
  }
  return { size: inUnitOf(spec.size ?? current.size, Math.min(wantedPx, max), groupPx), collapsed: false };
};

/** A collapsed panel opened again comes back at its last size, at least its minimum. */
export const toggled = (current: PanelState): PanelState => ({ ...current, collapsed: !current.collapsed });
