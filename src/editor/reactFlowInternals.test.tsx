// @vitest-environment happy-dom
/**
 * The contract with React Flow's store that `useNoSelectionListener` relies on: the store starts
 * with an empty list of selection-change handlers, and with that list its selection listener walks
 * every node on each store update; without the list, it walks none. An upgrade that changes either
 * fails here rather than silently costing every drag move (or breaking selection).
 */
import { act } from 'react';
import { ReactFlow, ReactFlowProvider, useStoreApi, type Node } from '@xyflow/react';
import { describe, expect, it } from 'vitest';
import { mountForTest, unmountAfterEach } from '../ui/mountForTest.tsx';
import { useNoSelectionListener } from './reactFlowInternals.ts';

unmountAfterEach();

const NODES: Node[] = [0, 1, 2].map((index) => ({ id: `n${index}`, position: { x: index * 200, y: 0 }, data: { label: `n${index}` } }));

type Store = ReturnType<typeof useStoreApi>;

const mountFlow = (withAdapter: boolean): Store => {
  let store: Store | null = null;
  function Probe() {
    store = useStoreApi();
    return null;
  }
  function Adapted() {
    useNoSelectionListener();
    return null;
  }
  mountForTest(
    <ReactFlowProvider>
      <Probe />
      {withAdapter ? <Adapted /> : null}
      <div style={{ width: 800, height: 600 }}>
        <ReactFlow nodes={NODES} edges={[]} />
      </div>
    </ReactFlowProvider>,
  );
  return store!;
};

/** How many times the nodes are walked (`for … of` the node lookup) during one unrelated store update. */
const nodeWalksOnUpdate = (store: Store) => {
  const lookup = store.getState().nodeLookup;
  let walks = 0;
  const walk = Map.prototype[Symbol.iterator];
  Object.defineProperty(lookup, Symbol.iterator, { configurable: true, value: function (this: typeof lookup) { walks += 1; return walk.call(this); } });
  try {
    act(() => store.setState({ ariaLiveMessage: 'an update that selects nothing' }));
  } finally {
    delete (lookup as unknown as Record<symbol, unknown>)[Symbol.iterator];
  }
  return walks;
};

describe("React Flow's selection listener", () => {
  it('starts with an empty list of handlers, which mounts a listener that walks the nodes on every update', () => {
    const store = mountFlow(false);
    expect(store.getState().onSelectionChangeHandlers).toEqual([]);
    expect(nodeWalksOnUpdate(store)).toBeGreaterThan(0);
  });

  it('walks no node once the canvas has dropped the empty list', () => {
    const store = mountFlow(true);
    expect(store.getState().onSelectionChangeHandlers).toBeUndefined();
    expect(nodeWalksOnUpdate(store)).toBe(0);
  });
});
