import { it } from 'vitest';
import { findTemplate } from './graph/index.ts';
import { edgeLayout } from './editor/flowAdapter.ts';
import { layoutGraph } from './editor/layout.ts';
import { nodeRect } from './editor/geometry.ts';
it('dbg', async () => {
  for (const id of ['securityclaw', 'graph-engineer', 'approval-gate']) {
    const graph = findTemplate(id)!.graph();
    const positions = await layoutGraph(graph);
    const laid = { ...graph, nodes: graph.nodes.map((n) => ({ ...n, position: positions[n.id] })) };
    const rects = laid.nodes.map(nodeRect);
    console.log(id, 'bounds', Math.max(...rects.map((r) => r.x + r.width)), Math.max(...rects.map((r) => r.y + r.height)), JSON.stringify(positions));
    const l = edgeLayout(laid);
    console.log(JSON.stringify([...l.labels].filter(([, p]) => p.t !== 0.5 || p.dy !== 0)), JSON.stringify([...l.loops]));
  }
});
