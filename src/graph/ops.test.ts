import { describe, expect, it } from 'vitest';
import { checkNodeId, moveEdge, renameNode, rewireEdge, updateNode } from './inspectorOps.ts';
import { addNode, connect, moveNodes, nextEdgeId, nextNodeId, removeEdges, removeNodes, updateEdge } from './ops.ts';
import { boxInside, createNode, duplicateNodes, freePosition } from './placement.ts';
import { removeScenario, saveScenario } from './scenarioOps.ts';
import { parseGraph } from './parse.ts';
import { serializeGraph } from './serialize.ts';
import type { GraphFile } from './schema.ts';
import { findTemplate } from './templates/index.ts';
import { validateGraph } from './validate.ts';

const securityclaw = (): GraphFile => findTemplate('securityclaw')!.graph();
const blank = (): GraphFile => findTemplate('blank')!.graph();
const wiring = (graph: GraphFile) => graph.edges.map((edge) => `${edge.id}:${edge.source}→${edge.target}`);

/** Every edit must leave its input as it was: undo keeps the old documents. */
const unchanged = (graph: GraphFile, edit: (graph: GraphFile) => unknown) => {
  const before = serializeGraph(graph);
  edit(graph);
  expect(serializeGraph(graph)).toBe(before);
};

describe('creating and adding nodes', () => {
  it('createNode gives a node of the kind with its default config and a free id', () => {
    const graph = securityclaw();
    const node = createNode(graph, 'act', { x: 10, y: 20 });
    expect(node).toEqual({ id: 'act', kind: 'act', label: 'Act', position: { x: 10, y: 20 }, config: { retry: { maxAttempts: 3, retryOn: ['timeout', 'parse_error'] }, maxIter: 5 } });
    const withAct = addNode(graph, node);
    expect(createNode(withAct, 'act', { x: 0, y: 0 }).id).toBe('act_2');
    expect(nextNodeId(addNode(withAct, createNode(withAct, 'act', { x: 0, y: 0 })), 'act')).toBe('act_3');
    expect(createNode(graph, 'recover', { x: 0, y: 0 }).id).toBe('recover_2');
  });

  it('a created node of every kind passes the file schema', () => {
    let graph = blank();
    for (const kind of ['reason', 'collect', 'act', 'verify', 'recover', 'approve', 'respond', 'stop'] as const)
      graph = addNode(graph, createNode(graph, kind, { x: 0, y: 0 }));
    const again = parseGraph(serializeGraph(graph));
    expect(again.ok ? again.value : again.problems).toEqual(graph);
  });

  it('the first node of an empty graph becomes its entry; later ones do not', () => {
    const graph = blank();
    const first = addNode(graph, createNode(graph, 'reason', { x: 0, y: 0 }));
    expect(first.entry).toBe('reason');
    expect(validateGraph(first).map((problem) => problem.code)).toEqual(['dead_end', 'no_plan']);
    const second = addNode(first, createNode(first, 'act', { x: 0, y: 0 }));
    expect(second.entry).toBe('reason');
    expect(addNode(securityclaw(), createNode(securityclaw(), 'stop', { x: 0, y: 0 })).entry).toBe('decide');
    unchanged(graph, (g) => addNode(g, createNode(g, 'act', { x: 0, y: 0 })));
  });
});

describe('editing nodes', () => {
  it('updateNode and moveNodes touch only the named nodes', () => {
    const graph = securityclaw();
    const labelled = updateNode(graph, 'answer', (node) => ({ ...node, label: 'Reply' }));
    expect(labelled.nodes.map((node) => node.label)).toEqual(['Decide', 'Execute skill', 'Evaluate', 'Recover', 'Reply', 'Forced stop', 'Human confirmation', 'Final response']);
    const moved = moveNodes(graph, new Map([['halt', { x: 1, y: 2 }]]));
    expect(moved.nodes.find((node) => node.id === 'halt')?.position).toEqual({ x: 1, y: 2 });
    expect(moved.nodes.find((node) => node.id === 'answer')?.position).toEqual(graph.nodes.find((node) => node.id === 'answer')?.position);
    unchanged(graph, (g) => moveNodes(updateNode(g, 'answer', (node) => ({ ...node, label: 'x' })), new Map([['halt', { x: 1, y: 2 }]])));
  });

  it('checkNodeId refuses bad and taken ids but accepts the node’s own', () => {
    const graph = securityclaw();
    expect(checkNodeId(graph, 'triage')).toBeNull();
    expect(checkNodeId(graph, 'decide')).toBe('"decide" is taken');
    expect(checkNodeId(graph, 'decide', 'decide')).toBeNull();
    expect(checkNodeId(graph, '2nd')).toMatch(/^an id is letters/);
    expect(checkNodeId(graph, 'has space')).toMatch(/^an id is letters/);
  });

  it('renameNode renames the node, its edges, the entry and the scenarios that name it', () => {
    const graph = securityclaw();
    const renamed = renameNode(graph, 'decide', 'plan');
    const timeout = renamed.scenarios.find((scenario) => scenario.name === 'execute timeout triggers local retry')!;
    expect(timeout.expect).toMatchObject({ attempts: { execute: 2, plan: 0 }, visits: { plan: 1, recover: 0 }, path: ['plan', 'execute', 'evaluate', 'answer'] });
    expect(renamed.scenarios.find((scenario) => scenario.name === "recovery changes the next round's path")!.expect.pathIncludes).toEqual(['recover', 'plan', 'execute', 'evaluate', 'answer']);
    expect(renamed.entry).toBe('plan');
    expect(renamed.nodes[0].id).toBe('plan');
    expect(wiring(renamed)).toEqual(['e1:plan→execute', 'e2:execute→evaluate', 'e3:evaluate→answer', 'e4:evaluate→recover', 'e5:evaluate→plan', 'e6:recover→plan', 'e7:recover→halt', 'e8:recover→confirm', 'e9:confirm→plan', 'e10:confirm→halt', 'e11:evaluate→recover']);
    expect(validateGraph(renamed)).toEqual([]);
    expect(renameNode({ ...graph, scenarios: [{ name: 'a', decisions: { decide: ['denied'] }, expect: {} }] }, 'decide', 'plan').scenarios[0].decisions).toEqual({ plan: ['denied'] });
    expect(renameNode(graph, 'decide', 'decide')).toBe(graph);
    unchanged(graph, (g) => renameNode(g, 'decide', 'plan'));
  });

  it('removeNodes drops the nodes with every edge touching them, and the entry if it went', () => {
    const graph = securityclaw();
    const withoutRecover = removeNodes(graph, ['recover']);
    expect(withoutRecover.nodes.map((node) => node.id)).toEqual(['decide', 'execute', 'evaluate', 'answer', 'halt', 'confirm', 'final']);
    expect(wiring(withoutRecover)).toEqual(['e1:decide→execute', 'e2:execute→evaluate', 'e3:evaluate→answer', 'e5:evaluate→decide', 'e9:confirm→decide', 'e10:confirm→halt']);
    expect(withoutRecover.entry).toBe('decide');
    const withoutEntry = removeNodes(graph, ['decide', 'halt']);
    expect(withoutEntry.entry).toBe('');
    expect(wiring(withoutEntry)).toEqual(['e2:execute→evaluate', 'e3:evaluate→answer', 'e4:evaluate→recover', 'e8:recover→confirm', 'e11:evaluate→recover']);
    unchanged(graph, (g) => removeNodes(g, ['recover']));
  });
});

describe('editing edges', () => {
  it('connect adds an edge with a fresh id, a condition from an outcome handle, and no duplicates', () => {
    const graph = securityclaw();
    const plain = connect(graph, 'answer', 'halt');
    expect(plain.edges.at(-1)).toEqual({ id: 'e12', source: 'answer', target: 'halt' });
    const onOutcome = connect(plain, 'recover', 'halt', 'no_path');
    expect(onOutcome.edges.at(-1)).toEqual({ id: 'e13', source: 'recover', target: 'halt', when: { outcome: 'no_path' } });
    expect(connect(onOutcome, 'recover', 'halt', 'no_path')).toBe(onOutcome);
    expect(connect(graph, 'decide', 'execute')).toBe(graph);
    expect(connect(graph, 'decide', 'execute', 'error').edges).toHaveLength(12);
    unchanged(graph, (g) => connect(g, 'answer', 'halt'));
  });

  it('nextEdgeId skips ids in use', () => {
    const graph = securityclaw();
    const taken = updateEdge(graph, 'e1', (edge) => ({ ...edge, id: 'e11' }));
    expect(nextEdgeId(taken)).toBe('e12');
    expect(nextEdgeId(blank())).toBe('e1');
  });

  it('updateEdge and removeEdges touch only the named edges', () => {
    const graph = securityclaw();
    const relabelled = updateEdge(graph, 'e5', (edge) => ({ ...edge, label: 'try again' }));
    expect(relabelled.edges.map((edge) => edge.label)).toEqual([undefined, undefined, undefined, undefined, 'try again', undefined, undefined, undefined, 'approved: re-plan', undefined, undefined]);
    expect(wiring(removeEdges(graph, ['e3', 'e7', 'e8', 'e9', 'e10']))).toEqual(['e1:decide→execute', 'e2:execute→evaluate', 'e4:evaluate→recover', 'e5:evaluate→decide', 'e6:recover→decide', 'e11:evaluate→recover']);
    unchanged(graph, (g) => removeEdges(updateEdge(g, 'e5', (edge) => ({ ...edge, label: 'x' })), ['e3']));
  });

  it('moveEdge swaps an edge with its neighbour among the same source’s edges only', () => {
    const graph = securityclaw();
    const order = (g: GraphFile) => g.edges.map((edge) => edge.id);
    expect(order(moveEdge(graph, 'e4', -1))).toEqual(['e1', 'e2', 'e4', 'e3', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10', 'e11']);
    expect(order(moveEdge(graph, 'e3', 1))).toEqual(['e1', 'e2', 'e4', 'e3', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10', 'e11']);
    // e3 is the first of evaluate's edges: moving it up stays within its source and changes nothing.
    expect(moveEdge(graph, 'e3', -1)).toBe(graph);
    expect(moveEdge(graph, 'e11', 1)).toBe(graph);
    expect(moveEdge(graph, 'nope', 1)).toBe(graph);
    const spread = { ...graph, edges: [graph.edges[5], graph.edges[0], graph.edges[6]] };
    expect(order(moveEdge(spread, 'e7', -1))).toEqual(['e7', 'e1', 'e6']);
    unchanged(graph, (g) => moveEdge(g, 'e4', -1));
  });

  it('rewireEdge moves either end; leaving on an outcome is its condition, leaving on none drops an outcome and keeps any other', () => {
    const graph = securityclaw();
    const edgeOf = (g: GraphFile, id: string) => g.edges.find((edge) => edge.id === id);
    // The target end alone: the outcome it leaves on stays.
    expect(edgeOf(rewireEdge(graph, 'e3', 'evaluate', 'halt', 'sufficient'), 'e3')).toEqual({ id: 'e3', source: 'evaluate', target: 'halt', when: { outcome: 'sufficient' } });
    // To another node's outcome row: that outcome; to its general row: an outcome goes, a path condition stays.
    expect(edgeOf(rewireEdge(graph, 'e3', 'recover', 'answer', 'recovered'), 'e3')).toEqual({ id: 'e3', source: 'recover', target: 'answer', when: { outcome: 'recovered' } });
    expect(edgeOf(rewireEdge(graph, 'e3', 'decide', 'answer', null), 'e3')).toEqual({ id: 'e3', source: 'decide', target: 'answer' });
    expect(edgeOf(rewireEdge(graph, 'e4', 'decide', 'recover', null), 'e4')).toEqual({ id: 'e4', source: 'decide', target: 'recover', when: { path: 'evaluation.plan_exhausted', op: 'eq', value: true } });
    // A label and the edge's place in its list stay; other edges are the same objects.
    const labelled = rewireEdge(graph, 'e9', 'confirm', 'halt', 'approved');
    expect(edgeOf(labelled, 'e9')?.label).toBe('approved: re-plan');
    expect(wiring(labelled)[8]).toBe('e9:confirm→halt');
    expect(labelled.edges[0]).toBe(graph.edges[0]);
    unchanged(graph, (g) => rewireEdge(g, 'e3', 'recover', 'answer', 'recovered'));
  });
});

describe('duplicateNodes', () => {
  it('copies nodes with fresh ids and offset positions, and only the edges among them', () => {
    const graph = securityclaw();
    const picked = graph.nodes.filter((node) => node.id === 'recover' || node.id === 'halt');
    const { graph: next, ids } = duplicateNodes(graph, picked, graph.edges);
    expect(ids).toEqual(['recover_2', 'halt_2']);
    expect(next.nodes.slice(-2).map((node) => [node.id, node.position])).toEqual([
      ['recover_2', { x: picked[0].position.x + 40, y: picked[0].position.y + 40 }], ['halt_2', { x: picked[1].position.x + 40, y: picked[1].position.y + 40 }],
    ]);
    expect(wiring(next).slice(11)).toEqual(['e12:recover_2→halt_2']);
    expect(next.edges.at(-1)?.when).toBe('otherwise');
    expect(next.nodes.at(-2)?.config).toEqual(picked[0].config);
    expect(next.nodes.at(-2)?.config).not.toBe(picked[0].config);
    unchanged(graph, (g) => duplicateNodes(g, picked, g.edges));
  });

  it('copies of copies count up instead of stacking suffixes', () => {
    const graph = securityclaw();
    const once = duplicateNodes(graph, [graph.nodes[0]], [], { x: 0, y: 0 }).graph;
    const twice = duplicateNodes(once, [once.nodes.at(-1)!], []);
    expect(twice.ids).toEqual(['decide_3']);
  });
});

describe('freePosition', () => {
  // Nodes as tall as a Recover with its rules: taller than the step the palette once moved down by.
  const size = { width: 184, height: 220 };
  const boxOf = (node: { position: { x: number; y: number } }) => ({ ...node.position, ...size });
  const overlaps = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.abs(a.x - b.x) < size.width && Math.abs(a.y - b.y) < size.height;

  it('keeps a free spot, and finds the nearest free one for a taken spot', () => {
    const graph = securityclaw();
    const decide = graph.nodes.find((node) => node.id === 'decide')!.position;
    expect(freePosition(graph, { x: decide.x - 1000, y: decide.y }, size, boxOf)).toEqual({ x: decide.x - 1000, y: decide.y });
    const placed = freePosition(graph, { x: decide.x + 10, y: decide.y + 10 }, size, boxOf);
    expect(graph.nodes.some((node) => overlaps(node.position, placed))).toBe(false);
    expect(Math.hypot(placed.x - decide.x, placed.y - decide.y)).toBeLessThan(600);
  });

  it('with a room (the view), a free spot inside it, else the nearest anywhere: a node added from the keyboard is not put off-screen (issue 53)', () => {
    const one = { ...securityclaw(), nodes: [{ ...securityclaw().nodes[0], position: { x: 0, y: 0 } }], edges: [] } as GraphFile;
    // The nearest free spot is to the right, past the view's right edge; one to the left is inside it.
    const room = { x: -500, y: -100, width: 700, height: 700 };
    expect(freePosition(one, { x: 0, y: 0 }, size, boxOf)).toEqual({ x: 240, y: 0 });
    expect(freePosition(one, { x: 0, y: 0 }, size, boxOf, room)).toEqual({ x: -240, y: 0 });
    expect(boxInside({ x: -240, y: 0, ...size }, room)).toBe(true);
    // No free room in the view: the nearest spot anywhere (the palette then brings it into view).
    expect(freePosition(one, { x: 0, y: 0 }, size, boxOf, { x: -10, y: -10, width: 300, height: 300 })).toEqual({ x: 240, y: 0 });
  });

  it('places node after node asked for at one spot clear of each other, as the palette does from the keyboard', () => {
    let graph = { ...securityclaw(), nodes: [], edges: [] } as GraphFile;
    for (let index = 0; index < 8; index += 1) {
      const position = freePosition(graph, { x: 300, y: 200 }, size, boxOf);
      expect(graph.nodes.filter((node) => overlaps(node.position, position))).toEqual([]);
      graph = { ...graph, nodes: [...graph.nodes, { ...securityclaw().nodes[0], id: `n${index}`, position }] };
    }
  });
});

describe('scenarios', () => {
  it('saving replaces a scenario of the same name in place and appends a new one; removing drops it', () => {
    const graph = findTemplate('securityclaw')!.graph();
    const names = graph.scenarios.map((scenario) => scenario.name);
    const replaced = saveScenario(graph, { name: names[1], expect: { rounds: 9 } });
    expect(replaced.scenarios.map((scenario) => scenario.name)).toEqual(names);
    expect(replaced.scenarios[1].expect).toEqual({ rounds: 9 });
    expect(graph.scenarios[1].expect.rounds).toBe(1);
    const added = saveScenario(graph, { name: 'new', expect: {} });
    expect(added.scenarios.map((scenario) => scenario.name)).toEqual([...names, 'new']);
    expect(removeScenario(added, 'new').scenarios).toEqual(graph.scenarios);
  });
});
