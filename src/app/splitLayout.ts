/**
 * The arithmetic of the shell's splitters. A group lays its panels out with CSS flex: one panel
 * fills what is left, the others have a size in pixels or in percent of the group, kept within
 * their minimum and maximum by CSS. Nothing here reads the page, so opening a big graph lays the
 * shell out once, with the canvas.
 */

/** A panel's size: pixels, or percent of its group's length. */
export type PanelSize = { px: number } | { percent: number };

export interface PanelSpec {
  /** Its starting size; a panel without one fills the rest of the group. */
  size?: PanelSize;
  /** In pixels. */
  min: number;
  max?: number;
  collapsible?: boolean;
  /** How much of it stays when collapsed (a rail); 0 hides it. */
  collapsedSize?: number;
  startCollapsed?: boolean;
}

export interface PanelState {
  size: PanelSize;
  collapsed: boolean;
}

export type GroupLayout = Record<string, PanelState>;

/** The flex of a panel: the filling one grows, a sized one keeps its size and gives way to its minimum when the window is small. */
export const flexOf = (spec: PanelSpec, state: PanelState | undefined) => {
  if (!spec.size || !state) return { flex: '1 1 0', minSize: spec.min };
  if (state.collapsed) return { flex: `0 0 ${spec.collapsedSize ?? 0}px`, minSize: 0 };
  const basis = 'px' in state.size ? `${state.size.px}px` : `${state.size.percent}%`;
  return { flex: `0 1 ${basis}`, minSize: spec.min, maxSize: spec.max };
};

/** The layout a group starts with: the person's, as remembered, where it fits the panels; their defaults otherwise. */
export const initialLayout = (specs: Record<string, PanelSpec>, remembered: unknown): GroupLayout => {
  const layout: GroupLayout = {};
  const saved = remembered !== null && typeof remembered === 'object' ? (remembered as Record<string, unknown>) : {};
  for (const [id, spec] of Object.entries(specs)) {
    if (!spec.size) continue;
    const fallback: PanelState = { size: spec.size, collapsed: Boolean(spec.collapsible && spec.startCollapsed) };
    layout[id] = Object.hasOwn(saved, id) && isState(saved[id], spec) ? (saved[id] as PanelState) : fallback;
  }
  return layout;
};

const isState = (value: unknown, spec: PanelSpec): boolean => {
  if (value === null || typeof value !== 'object') return false;
  const { size, collapsed } = value as Partial<PanelState>;
  if (typeof collapsed !== 'boolean' || (collapsed && !spec.collapsible) || size === null || typeof size !== 'object') return false;
  const unit = spec.size ?? size;
  const amount = 'px' in unit ? (size as { px?: unknown }).px : (size as { percent?: unknown }).percent;
  return typeof amount === 'number' && Number.isFinite(amount) && amount >= 0 && ('px' in unit || amount <= 100);
};

/**
 * The layout drawn while some panels yield their room to the rest (the step detail while a node is
 * edited): those show collapsed, and the person's own sizes, remembered, are left as they are.
 */
export const withFolded = (layout: GroupLayout, folded: readonly string[]): GroupLayout => {
  const shown = folded.filter((id) => layout[id] && !layout[id].collapsed);
  if (shown.length === 0) return layout;
  return { ...layout, ...Object.fromEntries(shown.map((id) => [id, { ...layout[id], collapsed: true }])) };
};
