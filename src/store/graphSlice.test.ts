import { beforeEach, describe, expect, it } from 'vitest';
import { addNode, createNode, findTemplate, serializeGraph } from '../graph/index.ts';
import { hasUnsavedChanges, useApp } from './index.ts';

const initial = useApp.getState();
beforeEach(() => useApp.setState(initial, true));

const addAct = () => useApp.getState().edit((graph) => addNode(graph, createNode(graph, 'act', { x: 0, y: 0 })));

describe('graph slice', () => {
  it('counts edits since the document was opened as unsaved, and opening another resets that', () => {
    expect(hasUnsavedChanges(useApp.getState())).toBe(false);
    addAct();
    expect(hasUnsavedChanges(useApp.getState())).toBe(true);
    const version = useApp.getState().documentVersion;
    expect(useApp.getState().openTemplate('graph-engineer')).toBe(true);
    expect(useApp.getState().documentVersion).toBe(version + 1);
    expect(hasUnsavedChanges(useApp.getState())).toBe(false);
    // The load itself is undoable: undo goes back to the edited SecurityClaw.
    useApp.getState().undo();
    expect(useApp.getState().graph.nodes.map((node) => node.id)).toContain('act');
  });

  it('coalesces edits with one key and keeps others apart', () => {
    addAct();
    const { edit } = useApp.getState();
    edit((graph) => ({ ...graph, name: 'a' }), 'name');
    edit((graph) => ({ ...graph, name: 'ab' }), 'name');
    expect(useApp.getState().past).toHaveLength(2);
    useApp.getState().undo();
    expect(useApp.getState().graph.name).toBe('SecurityClaw triage');
  });

  it('a bad import leaves the graph and its history alone and names the path', () => {
    const before = useApp.getState().graph;
    const broken = JSON.parse(serializeGraph(findTemplate('securityclaw')!.graph()));
    broken.nodes[1].config.retry.maxAttempts = 'three';
    expect(useApp.getState().importText(JSON.stringify(broken), 'broken.json')).toBe(false);
    expect(useApp.getState().graph).toBe(before);
    expect(useApp.getState().past).toHaveLength(0);
    expect(useApp.getState().importError).toMatch(/^Could not open broken\.json: nodes\[1\]\.config\.retry\.maxAttempts/);
  });
});
