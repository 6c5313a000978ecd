import { describe, expect, it } from 'vitest';
import { findTemplate, type GraphFile } from '../graph/index.ts';
import { findBackEdges } from './flowAdapter.ts';
import { DEFAULT_SIZE, layoutGraph } from './layout.ts';

/** A long loop of layers with side branches and loop-backs, like a big agent graph. */
const generated = (count: number): GraphFile => {
  const base = findTemplate('securityclaw')!.graph();
  const nodes = Array.from({ length: count }, (_, index) => ({ ...base.nodes[1], id: `n${index}`, position: { x: 0, y: 0 } }));
  const edges = [];
  for (let index = 1; index < count; index += 1) {
    edges.push({ id: `f${index}`, source: `n${Math.floor((index - 1) / 2)}`, target: `n${index}` });
    if (index % 7 === 0) edges.push({ id: `b${index}`, source: `n${index}`, target: `n${Math.floor(index / 3)}`, when: 'otherwise' as const });
  }
  return { ...base, entry: 'n0', nodes, edges };
};

const overlaps = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.abs(a.x - b.x) < DEFAULT_SIZE.width && Math.abs(a.y - b.y) < DEFAULT_SIZE.height;

describe('layoutGraph', () => {
  it('places SecurityClaw left to right with loop-backs pointing back', () => {
    const graph = findTemplate('securityclaw')!.graph();
    const positions = layoutGraph(graph);
    const x = (id: string) => positions.get(id)!.x;
    expect(x('decide')).toBeLessThan(x('execute'));
    expect(x('execute')).toBeLessThan(x('evaluate'));
    expect(x('evaluate')).toBeLessThan(x('answer'));
    expect(x('evaluate')).toBeLessThan(x('recover'));
    expect(x('recover')).toBeLessThan(x('halt'));
  });

  it('lays out 500 nodes: every node placed, none overlapping, forward edges go right', { timeout: 30_000 }, () => {
    const graph = generated(500);
    const positions = layoutGraph(graph);
    expect(positions.size).toBe(500);
    for (const position of positions.values()) {
      expect(Number.isFinite(position.x)).toBe(true);
      expect(Number.isFinite(position.y)).toBe(true);
    }
    const back = findBackEdges(graph);
    expect(back.size).toBeGreaterThan(0);
    for (const edge of graph.edges) if (!back.has(edge.id)) expect(positions.get(edge.target)!.x).toBeGreaterThan(positions.get(edge.source)!.x);
    const sorted = [...positions.values()].sort((a, b) => a.x - b.x || a.y - b.y);
    for (let i = 0; i < sorted.length; i += 1)
      for (let j = i + 1; j < sorted.length && sorted[j].x - sorted[i].x < DEFAULT_SIZE.width; j += 1) expect(overlaps(sorted[i], sorted[j])).toBe(false);
  });

  it('uses measured sizes so tall nodes do not overlap', () => {
    const graph = findTemplate('securityclaw')!.graph();
    const sizes = new Map(graph.nodes.map((node) => [node.id, { width: 200, height: 400 }]));
    const positions = layoutGraph(graph, sizes);
    expect(Math.abs(positions.get('answer')!.y - positions.get('recover')!.y)).toBeGreaterThanOrEqual(400);
  });

  it('lays out ids that are names of Object methods', () => {
    const graph: GraphFile = {
      ...findTemplate('blank')!.graph(),
      entry: 'toString',
      nodes: [
        { id: 'toString', kind: 'reason', position: { x: 0, y: 0 }, config: { planner: 'scripted', plans: [], retry: { maxAttempts: 3, retryOn: ['timeout'] } } },
        { id: 'hasOwnProperty', kind: 'stop', position: { x: 0, y: 0 }, config: { reason: 'stopped' } },
      ],
      edges: [{ id: 'valueOf', source: 'toString', target: 'hasOwnProperty' }],
    };
    const positions = layoutGraph(graph);
    expect(positions.get('toString')!.x).toBeLessThan(positions.get('hasOwnProperty')!.x);
  });
});
