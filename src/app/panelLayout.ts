/**
 * A layout as the shell draws it, derived from the panels' list (panelRegistry.ts): which panels
 * each splitter group holds, in order, with their sizes and the side their splitter is on; what
 * each place of the shell and each panel holds besides.
 */
import type { GroupName, LayoutName, OwnSlot, PanelEntry, Place } from './panelRegistry.ts';
import type { PanelSpec } from './splitLayout.ts';

export interface GroupPanel {
  entry: PanelEntry;
  /** Its splitter panel's id. */
  id: string;
  slot: OwnSlot;
  spec: PanelSpec;
  /** Its splitter sits between it and the panel that fills the group: after it left of (or above) that one, before it right of it; none on the filling one. */
  splitter: 'before' | 'after' | null;
}

export interface DerivedLayout {
  groups: Record<GroupName, GroupPanel[]>;
  /** Per place of the shell, and per panel id, the contents drawn there, in the list's order. */
  contents: Map<Place | string, PanelEntry[]>;
}

export const panelId = (entry: Pick<PanelEntry, 'id'>) => `${entry.id}-panel`;

export const deriveLayout = (panels: readonly PanelEntry[], layout: LayoutName, narrow: boolean): DerivedLayout => {
  const groups: Record<GroupName, GroupPanel[]> = { main: [], bottom: [], side: [] };
  const contents = new Map<string, PanelEntry[]>();
  for (const entry of panels) {
    const slot = entry.at[layout];
    if (!slot) continue;
    if ('group' in slot) groups[slot.group].push({ entry, id: panelId(entry), slot, spec: typeof slot.spec === 'function' ? slot.spec(narrow) : slot.spec, splitter: null });
    const where = 'group' in slot ? entry.id : 'place' in slot ? slot.place : slot.inside;
    contents.set(where, [...(contents.get(where) ?? []), entry]);
  }
  for (const [name, list] of Object.entries(groups)) {
    // The main group's panels are left of the canvas's column, the group's filling one.
    const filling = name === 'main' ? list.length : list.findIndex((panel) => !panel.spec.size);
    list.forEach((panel, at) => (panel.splitter = at < filling ? 'after' : at > filling ? 'before' : null));
  }
  return { groups, contents };
};

/** A group's panels by id, as its SplitGroup takes them, with the shell's own (`extra`). */
export const specsOf = (panels: readonly GroupPanel[], extra: Record<string, PanelSpec> = {}): Record<string, PanelSpec> => ({
  ...Object.fromEntries(panels.map((panel) => [panel.id, panel.spec])),
  ...extra,
});
