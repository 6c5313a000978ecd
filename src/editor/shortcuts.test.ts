// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { isTyping } from '../ui/typing.ts';
import { keepEarlyShortcuts, shortcutOf, type EarlyShortcuts } from './shortcutKeys.ts';

const key = (key: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) => ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });

describe('shortcutOf', () => {
  it('maps Ctrl and Cmd chords', () => {
    expect(shortcutOf(key('z', { ctrlKey: true }))).toBe('undo');
    expect(shortcutOf(key('Z', { metaKey: true, shiftKey: true }))).toBe('redo');
    expect(shortcutOf(key('y', { ctrlKey: true }))).toBe('redo');
    expect(shortcutOf(key('c', { metaKey: true }))).toBe('copy');
    expect(shortcutOf(key('v', { ctrlKey: true }))).toBe('paste');
    expect(shortcutOf(key('d', { ctrlKey: true }))).toBe('duplicate');
  });

  it('C alone connects from the selected node; Shift+C does not', () => {
    expect(shortcutOf(key('c'))).toBe('connect');
    expect(shortcutOf(key('C', { shiftKey: true }))).toBeNull();
  });

  it('ignores plain keys and Alt chords', () => {
    expect(shortcutOf(key('z'))).toBeNull();
    expect(shortcutOf(key('z', { ctrlKey: true, altKey: true }))).toBeNull();
    expect(shortcutOf(key('q', { ctrlKey: true }))).toBeNull();
  });
});

describe('isTyping', () => {
  it('is true in form fields and editable text only', () => {
    expect(isTyping(document.createElement('input'))).toBe(true);
    expect(isTyping(document.createElement('textarea'))).toBe(true);
    expect(isTyping(document.createElement('select'))).toBe(true);
    expect(isTyping(document.createElement('div'))).toBe(false);
    expect(isTyping(null)).toBe(false);
  });
});

/** Opens a graph of one node, selected, as document `id`; the store and the shortcuts, loaded. */
const openOneNode = async (id: string) => {
  const { useApp, foreignDocumentId } = await import('../store/index.ts');
  const { blankGraph } = await import('../graph/index.ts');
  const { createNode } = await import('../graph/placement.ts');
  const { listenForShortcuts } = await import('./shortcuts.ts');
  const source = blankGraph();
  const node = createNode(source, 'reason', { x: 0, y: 0 });
  useApp.getState().openDocument({ ...source, nodes: [node] }, id);
  useApp.getState().select({ nodes: [node.id] });
  return { useApp, foreignDocumentId, blankGraph, listenForShortcuts };
};

describe('listenForShortcuts over a server graph', () => {
  it('says why a paste of copied nodes adds nothing, instead of doing nothing', async () => {
    const { useApp, foreignDocumentId, blankGraph, listenForShortcuts } = await openOneNode('graph-a');
    const stop = listenForShortcuts(() => undefined);
    try {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'c', ctrlKey: true }));
      useApp.getState().openDocument(blankGraph(), foreignDocumentId({ origin: 'http://127.0.0.1:2024', assistantId: 'agent' }));
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'v', ctrlKey: true }));
      expect(useApp.getState().graph.nodes).toEqual([]);
      expect(useApp.getState().importError).toBe('Could not paste the nodes: A LangGraph graph is edited in its code; open a Loopscope graph from Graphs to edit one here.');
    } finally {
      stop();
    }
  });
});

describe('listenForShortcuts with keys pressed before it loaded', () => {
  it('makes them first, in order: a duplicate, an undo and a redo pressed before it loaded leave the duplicate', async () => {
    const { useApp, listenForShortcuts } = await openOneNode('graph-b');
    const pressed = [new KeyboardEvent('keydown', { key: 'd', ctrlKey: true }), new KeyboardEvent('keydown', { key: 'z', ctrlKey: true }), new KeyboardEvent('keydown', { key: 'y', ctrlKey: true })];
    const stop = listenForShortcuts(() => undefined, { pressed, pasted: [] });
    try {
      // Duplicated, undone, redone: two nodes, and the undo and redo ran after the duplicate.
      expect(useApp.getState().graph.nodes).toHaveLength(2);
      useApp.getState().undo();
      expect(useApp.getState().graph.nodes).toHaveLength(1);
    } finally {
      stop();
    }
  });
});

describe('a paste before the shortcuts have loaded', () => {
  const pasteEvent = (text: string) => Object.assign(new Event('paste', { cancelable: true }), { clipboardData: { getData: (type: string) => (type === 'text/plain' ? text : '') } });

  it('is kept, the browser doing nothing with it; a paste key is left to the browser, whose paste event follows', () => {
    const target = new EventTarget() as Window;
    const early: EarlyShortcuts = { pressed: [], pasted: [] };
    const stop = keepEarlyShortcuts(early, target);
    const undo = new KeyboardEvent('keydown', { key: 'z', ctrlKey: true, cancelable: true });
    const pasteKey = new KeyboardEvent('keydown', { key: 'v', ctrlKey: true, cancelable: true });
    const pasted = pasteEvent('{"nodes": []}');
    [undo, pasteKey, pasted].forEach((event) => target.dispatchEvent(event));
    stop();
    target.dispatchEvent(pasteEvent('after'));
    expect(early).toEqual({ pressed: [undo], pasted: ['{"nodes": []}'] });
    expect([undo.defaultPrevented, pasteKey.defaultPrevented, pasted.defaultPrevented]).toEqual([true, false, true]);
  });

  it('is made once they have: copied nodes pasted then are added', async () => {
    const { useApp, listenForShortcuts } = await openOneNode('graph-c');
    const { copyNodes } = await import('./clipboard.ts');
    const { graph, selection } = useApp.getState();
    const stop = listenForShortcuts(() => undefined, { pressed: [], pasted: [JSON.stringify(copyNodes(graph, selection.nodes))] });
    try {
      await vi.waitFor(() => expect(useApp.getState().graph.nodes).toHaveLength(2));
    } finally {
      stop();
    }
  });
});
