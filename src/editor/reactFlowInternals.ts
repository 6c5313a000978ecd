/**
 * What the canvas relies on inside React Flow's store, beyond its public API, in one place with a
 * contract test (reactFlowInternals.test.tsx) that fails on an upgrade that changes it.
 */
import { useState } from 'react';
import { useStoreApi } from '@xyflow/react';

/**
 * React Flow 12 mounts its selection listener whenever its store holds a list of selection-change
 * handlers, and the empty list it starts with counts (`!![]`): the listener's selector then walks
 * every node and edge at every store update, each drag move among them (~2 ms a move at 5,000 nodes
 * and 7,500 edges, and more at a drag's start). The canvas takes selection from `onNodesChange` and
 * registers no such handler, so the empty list is dropped.
 */
export const useNoSelectionListener = () => {
  const store = useStoreApi();
  // In the canvas's first render, before React Flow's: a listener once mounted reads the list in its effect.
  useState(() => {
    if (store.getState().onSelectionChangeHandlers.length === 0) store.setState({ onSelectionChangeHandlers: undefined as never });
  });
};
