import { beforeAll, describe, expect, it, vi } from 'vitest';
import { moveNodes } from '../../graph/index.ts';
import { findTemplate } from '../../graph/templates/index.ts';
import { edgeLayout, loadLabelPlacement } from '../flowAdapter.ts';
import { createEdgeLayoutStore } from './layoutStore.ts';

// Labels are placed once their placement has loaded, as on the canvas after its first commit.
beforeAll(() => loadLabelPlacement());

describe('the edge layout store', () => {
  it('tells its edges of a new layout, each label that stays where it was keeping its place object', () => {
    const graph = findTemplate('securityclaw')!.graph();
    const first = edgeLayout(graph);
    expect(first.labels.size).toBeGreaterThan(0);
    const store = createEdgeLayoutStore(first);
    const listener = vi.fn();
    store.subscribe(listener);
    // The same graph as a new value: placed again, into new objects.
    const again = edgeLayout({ ...graph });
    store.set(again);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.get().loops).toBe(again.loops);
    for (const [id, place] of first.labels) expect(store.get().labels.get(id)).toBe(place);
    // A node moved far off: the labels placed elsewhere are the new ones, with the new places.
    const answer = graph.nodes.find((node) => node.id === 'answer')!;
    const moved = edgeLayout(moveNodes(graph, new Map([['answer', { x: answer.position.x - 600, y: answer.position.y + 400 }]])));
    store.set(moved);
    for (const [id, place] of moved.labels) expect(store.get().labels.get(id)).toEqual(place);
    expect([...store.get().labels.keys()]).toEqual([...moved.labels.keys()]);
  });
});
