import { describe, expect, it } from 'vitest';
import { deriveLayout, specsOf } from './panelLayout.ts';
import { PANELS, type PanelEntry } from './panelRegistry.ts';

const ids = (layout: ReturnType<typeof deriveLayout>, group: 'main' | 'bottom' | 'side') => layout.groups[group].map((panel) => `${panel.splitter === 'before' ? '| ' : ''}${panel.id}${panel.splitter === 'after' ? ' |' : ''}`);
const placed = (layout: ReturnType<typeof deriveLayout>, where: string) => (layout.contents.get(where) ?? []).map((entry) => entry.id);

/** A panel added by one entry, as docs/architecture.md's "Adding a panel" adds it. */
const notes: PanelEntry = {
  id: 'notes',
  title: 'Notes',
  load: async () => () => null,
  at: { edit: { group: 'bottom', spec: { size: { percent: 20 }, min: 160, collapsible: true }, frame: 'rail', resize: 'notes' }, debug: { group: 'side', spec: { size: { px: 200 }, min: 120 }, resize: 'notes' } },
};

describe('the shell’s layouts, from the list of panels', () => {
  it('lay the panels out as the shell always has, with each splitter on the side of the panel that fills its group', () => {
    const edit = deriveLayout(PANELS, 'edit', false);
    expect(ids(edit, 'main')).toEqual(['palette-panel |']);
    expect(ids(edit, 'bottom')).toEqual(['timeline-panel', '| scenarios-panel', '| problems-panel']);
    expect(ids(edit, 'side')).toEqual(['inspector-panel', '| step-panel']);
    expect(placed(edit, 'header')).toEqual(['editor-toolbar', 'run-toolbar']);
    expect(placed(edit, 'dialogs')).toEqual(['host-consent', 'server-start-consent', 'grant-consent', 'other-tab-notice']);
    expect(placed(edit, 'canvas')).toEqual(['run-on-canvas', 'server-canvas']);
    expect(placed(edit, 'over-bottom')).toEqual(['run-comparison']);
    expect(placed(edit, 'palette')).toEqual(['palette', 'view']);

    const debug = deriveLayout(PANELS, 'debug', false);
    expect(ids(debug, 'main')).toEqual([]);
    expect(ids(debug, 'bottom')).toEqual(['view-panel |', 'timeline-panel', '| step-panel', '| scenarios-panel', '| problems-panel']);
    expect(ids(debug, 'side')).toEqual([]);
    expect(placed(debug, 'view')).toEqual(['view']);
  });

  it('start the scenarios as a rail on a narrow window, and in the Debug layout', () => {
    const startCollapsed = (narrow: boolean, layout: 'edit' | 'debug') => specsOf(deriveLayout(PANELS, layout, narrow).groups.bottom)['scenarios-panel'].startCollapsed;
    expect([startCollapsed(false, 'edit'), startCollapsed(true, 'edit'), startCollapsed(false, 'debug')]).toEqual([false, true, true]);
  });

  it('take a new panel from its one entry, in each layout where it says', () => {
    const edit = deriveLayout([...PANELS, notes], 'edit', false);
    expect(ids(edit, 'bottom')).toEqual(['timeline-panel', '| scenarios-panel', '| problems-panel', '| notes-panel']);
    expect(specsOf(edit.groups.bottom)['notes-panel']).toEqual({ size: { percent: 20 }, min: 160, collapsible: true });
    expect(placed(edit, 'notes')).toEqual(['notes']);
    const debug = deriveLayout([...PANELS, notes], 'debug', false);
    // The Debug layout had no side column: the entry makes one.
    expect(ids(debug, 'side')).toEqual(['| notes-panel']);
    expect(ids(debug, 'bottom')).not.toContain('| notes-panel');
  });

  it('give every panel of a group an id of its own and at most one filling panel', () => {
    for (const layout of ['edit', 'debug'] as const)
      for (const list of Object.values(deriveLayout(PANELS, layout, false).groups)) {
        expect(new Set(list.map((panel) => panel.id)).size).toBe(list.length);
        expect(list.filter((panel) => !panel.spec.size).length).toBeLessThanOrEqual(1);
      }
  });
});
