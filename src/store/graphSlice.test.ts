import { beforeEach, describe, expect, it, vi } from 'vitest';
import { addNode, blankGraph, serializeGraph } from '../graph/index.ts';
import { createNode } from '../graph/placement.ts';
import { parseGraph } from '../graph/parse.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { foreignDocumentId, useApp } from './index.ts';

const initial = useApp.getState();
beforeEach(() => useApp.setState(initial, true));

const addAct = () => useApp.getState().edit((graph) => addNode(graph, createNode(graph, 'act', { x: 0, y: 0 })));

describe('graph slice', () => {
  it('on a page whose checks have not loaded yet, leaves problems unchecked and checks them once they have', async () => {
    // Fresh modules: the check (validate.ts, with the schemas) not loaded, as on the page before its first screen is drawn.
    vi.resetModules();
    const { useApp: freshApp } = await import('./index.ts');
    expect(freshApp.getState().problems).toBeNull();
    freshApp.getState().edit((graph) => ({ ...graph, entry: 'nowhere' }));
    expect(freshApp.getState().problems).toBeNull();
    await vi.waitFor(() => expect(freshApp.getState().problems?.map((problem) => problem.code)).toContain('no_entry'));
  });

  it('opens another graph under a new id of its own, with a history of its own', async () => {
    addAct();
    const { documentId, documentVersion } = useApp.getState();
    expect(await useApp.getState().openTemplate('graph-engineer')).toBe(true);
    expect(useApp.getState().documentVersion).toBe(documentVersion + 1);
    expect(useApp.getState().documentId).not.toBe(documentId);
    expect(useApp.getState().past).toEqual([]);
    expect(useApp.getState().selection).toEqual({ nodes: [], edges: [] });
  });

  it("a server graph's stand-in is no Loopscope document: known by its id, with no problems of its own, taking no edits", async () => {
    const stood = { origin: 'http://127.0.0.1:2024', assistantId: 'a1 b2' };
    const standIn = { ...blankGraph(), name: 'react-agent' };
    useApp.getState().openDocument(standIn, foreignDocumentId(stood));
    expect(useApp.getState().foreign).toEqual(stood);
    useApp.getState().checkProblems();
    expect(useApp.getState().problems).toEqual([]);
    addAct();
    expect(useApp.getState().graph).toBe(standIn);
    expect(useApp.getState().past).toEqual([]);
    // Reopened from the library later, it is still the server's graph; any other document is a Loopscope graph again.
    useApp.getState().openDocument(standIn, foreignDocumentId(stood));
    expect(useApp.getState().foreign).toEqual(stood);
    expect(await useApp.getState().openTemplate('blank')).toBe(true);
    expect(useApp.getState().foreign).toBeNull();
    await vi.waitFor(() => expect(useApp.getState().problems?.map((problem) => problem.code)).toContain('no_entry'));
  });

  it('coalesces edits with one key and keeps others apart', () => {
    addAct();
    const { edit } = useApp.getState();
    edit((graph) => ({ ...graph, name: 'a' }), 'name');
    edit((graph) => ({ ...graph, name: 'ab' }), 'name');
    expect(useApp.getState().past).toHaveLength(2);
    useApp.getState().undo();
    expect(useApp.getState().graph.name).toBe('Untitled graph');
  });

  it('undo and redo keep the selection to what the graph has: an undone node is no longer selected', () => {
    addAct();
    const act = useApp.getState().graph.nodes[0].id;
    useApp.getState().select({ nodes: [act], edges: [] });
    useApp.getState().undo();
    expect(useApp.getState().selection).toEqual({ nodes: [], edges: [] });
    useApp.getState().redo();
    useApp.getState().select({ nodes: [act], edges: [] });
    useApp.getState().edit((graph) => ({ ...graph, nodes: [] }));
    expect(useApp.getState().selection.nodes).toEqual([]);
  });

  it('a template opened again is named apart from the graphs of the library', async () => {
    expect(await useApp.getState().openTemplate('securityclaw', ['Other'])).toBe(true);
    const name = useApp.getState().graph.name;
    expect(await useApp.getState().openTemplate('securityclaw', ['Other', name])).toBe(true);
    expect(useApp.getState().graph.name).toBe(`${name} (2)`);
    expect(await useApp.getState().openTemplate('securityclaw', [name, `${name} (2)`])).toBe(true);
    expect(useApp.getState().graph.name).toBe(`${name} (3)`);
  });

  it('a bad import leaves the graph, its id and its history alone and names the path', () => {
    const { graph: before, documentId } = useApp.getState();
    const broken = JSON.parse(serializeGraph(findTemplate('securityclaw')!.graph()));
    broken.nodes[1].config.retry.maxAttempts = 'three';
    expect(useApp.getState().importParsed(parseGraph(JSON.stringify(broken)), 'broken.json')).toBe(false);
    expect(useApp.getState().graph).toBe(before);
    expect(useApp.getState().documentId).toBe(documentId);
    expect(useApp.getState().past).toHaveLength(0);
    expect(useApp.getState().importError).toMatch(/^Could not open broken\.json: nodes\[1\]\.config\.retry\.maxAttempts/);
  });
});
