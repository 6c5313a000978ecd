// @vitest-environment happy-dom
/**
 * The scenario marks on the canvas cost nothing while there are none: a drag changes React Flow's
 * nodes on every move, and each store update looked the marks' layer up in the DOM again (a
 * `querySelector` in a store selector, the costliest function of a drag that bare React Flow does
 * not run; issue 57, docs/performance.md).
 */
import { act } from 'react';
import { ReactFlow, ReactFlowProvider, useStoreApi, type Node } from '@xyflow/react';
import { expect, it } from 'vitest';
import { mountForTest, unmountAfterEach } from '../ui/mountForTest.tsx';
import { ScenarioMarks } from './ScenarioWatch.tsx';

unmountAfterEach();

const NODES: Node[] = [0, 1].map((index) => ({ id: `n${index}`, position: { x: index * 200, y: 0 }, data: { label: `n${index}` } }));

it('looks nothing up in the DOM on a drag move of a canvas with no marks', () => {
  let store: ReturnType<typeof useStoreApi> | null = null;
  function Probe() {
    store = useStoreApi();
    return null;
  }
  mountForTest(
    <ReactFlowProvider>
      <Probe />
      <div style={{ width: 800, height: 600 }}>
        <ReactFlow nodes={NODES} edges={[]}>
          <ScenarioMarks />
        </ReactFlow>
      </div>
    </ReactFlowProvider>,
  );
  const lookup = Element.prototype.querySelector;
  let lookups = 0;
  Element.prototype.querySelector = function (this: Element, selectors: string) {
    lookups += 1;
    return lookup.call(this, selectors);
  } as typeof lookup;
  try {
    // What a drag move does to React Flow's store: new nodes, one of them moved.
    for (let move = 1; move <= 3; move += 1)
      act(() => store!.setState({ nodes: NODES.map((node) => (node.id === 'n0' ? { ...node, position: { x: move * 10, y: 0 }, dragging: true } : node)) }));
  } finally {
    Element.prototype.querySelector = lookup;
  }
  expect(lookups).toBe(0);
});
