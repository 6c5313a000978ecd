import { afterAll, describe, expect, it } from 'vitest';
import { followRecipe } from './docRecipe.ts';

// docs/architecture.md's "Adding a panel", followed in a copy of the repository: its blocks become
// the panel's file, its line in panels.ts and its entry in the list; then the type checker runs there
// and the copy's own list is laid out. A step that no longer finds its place, or a block that no
// longer compiles or is not placed, fails this test: the page and the code stay in step.
const { touched, block, writeBlock, edit, run, typecheck, remove } = followRecipe('## Adding a panel', 'panel');
afterAll(remove);

/** The copy's layouts, by group and by place, as the shell derives them from its list. */
const LAYOUTS = `
import { PANELS } from './src/app/panelRegistry.ts';
import { deriveLayout } from './src/app/panelLayout.ts';
const of = (name) => {
  const layout = deriveLayout(PANELS, name, false);
  return { groups: Object.fromEntries(Object.entries(layout.groups).map(([group, list]) => [group, list.map((panel) => panel.id)])), loads: typeof PANELS.find((entry) => entry.id === 'notes')?.load };
};
console.log(JSON.stringify({ edit: of('edit'), debug: of('debug') }));
`;

describe('adding a panel as docs/architecture.md says', () => {
  it('with its entry but not its line in panels.ts, the type checker names what is missing', () => {
    writeBlock('src/editor/NotesPanel.tsx');
    // The list's last entry, then the new one.
    edit(3, 'src/app/panelRegistry.ts', /\n\];\n/, `\n${block('src/app/panelRegistry.ts (its entry)').replace(/^(?=.)/gm, '  ')}];\n`);
    const result = typecheck();
    expect(result.status, result.output).not.toBe(0);
    expect(result.output).toMatch(/src\/app\/panelRegistry\.ts\(\d+,\d+\): error TS2339: Property 'NotesPanel' does not exist/);
  }, 180_000);

  // Goes on from the copy the case above left half done.
  it('with every step done, it type-checks and both layouts place it where its entry says', () => {
    edit(2, 'src/app/panels.ts', /\n$/, `\n${block('src/app/panels.ts (its line)')}`);
    const checked = typecheck();
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);

    const laid = run('tsx', ['-e', LAYOUTS]);
    expect(laid.status, laid.output).toBe(0);
    const { edit: editing, debug } = JSON.parse(laid.output);
    expect(editing.groups.bottom).toEqual(['timeline-panel', 'scenarios-panel', 'problems-panel', 'notes-panel']);
    expect(editing.loads).toBe('function');
    // The Debug layout had no side column: the entry makes one.
    expect(debug.groups.side).toEqual(['notes-panel']);
    expect(debug.groups.bottom).not.toContain('notes-panel');
    // The panel is its file, its line and its entry: no layout, size map or stand-in was touched.
    expect([...touched].sort()).toEqual(['src/app/panelRegistry.ts', 'src/app/panels.ts', 'src/editor/NotesPanel.tsx']);
  }, 240_000);
});
