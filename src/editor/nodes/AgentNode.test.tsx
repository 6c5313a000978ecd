// @vitest-environment happy-dom
/**
 * A node's drawing runs when what it draws changes, not on each move of a drag: React Flow hands a
 * node its place too, which changes on every move, and the node's text measuring then ran on each
 * move where bare React Flow's node costs nothing (issue 57, docs/performance.md).
 */
import { act, useState } from 'react';
import { ReactFlow, ReactFlowProvider } from '@xyflow/react';
import { beforeEach, expect, it, vi } from 'vitest';
import { parseGraph } from '../../graph/parse.ts';
import { mountForTest, unmountAfterEach } from '../../ui/mountForTest.tsx';
import { toFlowNodes, withPositions, type AgentFlowNode } from '../flowAdapter.ts';
import { nodeTypes } from './index.ts';

// Each drawing of a node reads its title once (AgentNode.tsx): counted per node id.
const drawn = vi.hoisted(() => new Map<string, number>());
vi.mock('../geometry.ts', async (original) => {
  const actual = await original<typeof import('../geometry.ts')>();
  return {
    ...actual,
    nodeTitle: (node: Parameters<typeof actual.nodeTitle>[0]) => {
      drawn.set(node.id, (drawn.get(node.id) ?? 0) + 1);
      return actual.nodeTitle(node);
    },
  };
});

unmountAfterEach();
beforeEach(() => drawn.clear());

const parsed = parseGraph({
  format: 'loopscope/graph', version: 1, name: 'drag', entry: 'a',
  nodes: [
    { id: 'a', kind: 'reason', label: 'Plan the work', position: { x: 0, y: 0 } },
    { id: 'b', kind: 'act', position: { x: 300, y: 0 } },
  ],
  edges: [{ id: 'e', source: 'a', target: 'b' }],
});
if (!parsed.ok) throw new Error('the test graph does not parse');
const graph = parsed.value;

it('draws a dragged node once, not again on each move, and draws it again when it is selected', () => {
  const flowNodes = toFlowNodes(graph);
  let setNodes: (nodes: AgentFlowNode[]) => void = () => undefined;
  function Flow() {
    const [nodes, set] = useState(flowNodes);
    setNodes = set;
    return (
      <div style={{ width: 800, height: 600 }}>
        <ReactFlow nodes={nodes} edges={[]} nodeTypes={nodeTypes} />
      </div>
    );
  }
  mountForTest(
    <ReactFlowProvider>
      <Flow />
    </ReactFlowProvider>,
  );
  const before = { a: drawn.get('a') ?? 0, b: drawn.get('b') ?? 0 };
  expect(before.a).toBeGreaterThan(0);

  // A drag of `a`: its place changes on each move, as Canvas gives it (withPositions), dragging.
  for (let move = 1; move <= 5; move += 1)
    act(() => setNodes(withPositions(flowNodes, new Map([['a', { x: move * 10, y: move * 5 }]])).map((node) => (node.id === 'a' ? { ...node, dragging: true } : node))));
  expect(drawn.get('a') ?? 0).toBe(before.a);
  expect(drawn.get('b') ?? 0).toBe(before.b);

  // What it draws changes: selected, it is drawn again.
  act(() => setNodes(flowNodes.map((node) => (node.id === 'a' ? { ...node, selected: true } : node))));
  expect(drawn.get('a') ?? 0).toBeGreaterThan(before.a);
});
