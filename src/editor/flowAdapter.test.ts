import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gridGraph, readGenerated } from '../../bench/graphs.ts';
import { connect, moveNodes, type GraphFile } from '../graph/index.ts';
import { updateNode } from '../graph/inspectorOps.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { createFlowCache, findBackEdges, GENERAL_HANDLE, NO_EXTRAS, toFlowEdges, toFlowNodes, withPositions, type FlowExtras } from './flowAdapter.ts';
import { nodeHeight, nodeWidth, sourceHandleIndex, sourcePoint, targetPoint } from './geometry.ts';

const securityclaw = () => findTemplate('securityclaw')!.graph();

describe('toFlowNodes', () => {
  it('gives each node its kind, summary and entry mark', () => {
    const nodes = toFlowNodes(securityclaw());
    const decide = nodes.find((node) => node.id === 'decide')!;
    expect(decide.type).toBe('agent');
    expect(decide.data.isEntry).toBe(true);
    expect(decide.data.definition.outcomes).toEqual(['ok', 'repeated', 'error']);
    expect(nodes.find((node) => node.id === 'execute')!.data.summary.join(' ')).toContain('retry ×3');
    expect(nodes.filter((node) => node.data.isEntry)).toHaveLength(1);
  });

  it('places every handle where the geometry ends its edges, so React Flow need not measure nodes out of view', () => {
    const graph = securityclaw();
    const nodes = new Map(toFlowNodes(graph).map((node) => [node.id, node]));
    for (const edge of graph.edges) {
      const source = graph.nodes.find((node) => node.id === edge.source)!;
      const target = graph.nodes.find((node) => node.id === edge.target)!;
      const handle = nodes.get(source.id)!.handles!.find((one) => one.type === 'source' && one.id === (edge.when && typeof edge.when === 'object' && 'outcome' in edge.when ? edge.when.outcome : GENERAL_HANDLE))!;
      // React Flow ends an edge on the middle of the handle's outer side.
      expect({ x: source.position.x + handle.x + handle.width!, y: source.position.y + handle.y + handle.height! / 2 }).toEqual(sourcePoint(source, graph.skills, sourceHandleIndex(source, edge)));
      const into = nodes.get(target.id)!.handles!.find((one) => one.type === 'target')!;
      expect({ x: target.position.x + into.x, y: target.position.y + into.y + into.height! / 2 }).toEqual(targetPoint(target, graph.skills));
    }
  });

  it('marks the current node and heat only from the overlay', () => {
    const graph = securityclaw();
    expect(toFlowNodes(graph).some((node) => node.className === 'current')).toBe(false);
    const overlay = { currentNode: 'evaluate', firedEdge: 'e5', firedReason: 'otherwise', triedEdges: { e3: 'outcome is exhausted' }, nodeVisits: { decide: 3 }, edgeVisits: { e5: 2 } };
    const extras = { overlay, selectedNodes: ['answer'], selectedEdges: [], nodeBreakpoints: ['recover'], edgeBreakpoints: ['e4'] };
    const nodes = toFlowNodes(graph, extras);
    expect(nodes.filter((node) => node.className === 'current').map((node) => node.id)).toEqual(['evaluate']);
    expect(nodes.find((node) => node.id === 'decide')!.data.visits).toBe(3);
    expect(nodes.find((node) => node.id === 'recover')!.data.breakpoint).toBe(true);
    expect(nodes.find((node) => node.id === 'answer')!.selected).toBe(true);
    const edges = toFlowEdges(graph, extras);
    const fired = edges.filter((edge) => edge.className?.includes('fired'));
    expect(fired.map((edge) => edge.id)).toEqual(['e5']);
    expect(fired[0].data!.firedReason).toBe('otherwise');
    expect(fired[0].data!.visits).toBe(2);
    expect(edges.find((edge) => edge.id === 'e3')!.data!.notTaken).toBe('outcome is exhausted');
    expect(edges.find((edge) => edge.id === 'e4')!.data!.breakpoint).toBe(true);
    expect(fired[0].animated).toBe(true);
    // While an Instant run goes on the fired edge is marked but still: a moving edge repaints every frame.
    const still = toFlowEdges(graph, { ...extras, overlay: { ...overlay, still: true } }).find((edge) => edge.id === 'e5')!;
    expect(still.className).toContain('fired');
    expect(still.animated).toBe(false);
  });

  it('marks where two compared runs part: the node and the edge each run took', () => {
    const overlay = { currentNode: 'evaluate', firedEdge: 'e5', firedReason: 'otherwise', triedEdges: {}, nodeVisits: {}, edgeVisits: {}, parting: { nodes: ['evaluate'], leftEdge: 'e4', rightEdge: 'e5' } };
    const extras = { overlay, selectedNodes: [], selectedEdges: [], nodeBreakpoints: [], edgeBreakpoints: [] };
    expect(toFlowNodes(securityclaw(), extras).find((node) => node.id === 'evaluate')!.className).toBe('current parted');
    const edges = toFlowEdges(securityclaw(), extras);
    expect(edges.find((edge) => edge.id === 'e4')!.className).toBe('forward-edge parted-left');
    expect(edges.find((edge) => edge.id === 'e5')!.className).toBe('back-edge fired parted-right');
  });
});

describe('ids that are names of Object methods', () => {
  const graph: GraphFile = {
    ...securityclaw(),
    entry: 'toString',
    nodes: [
      { id: 'toString', kind: 'stop', position: { x: 0, y: 0 }, config: { reason: 'stopped' } },
      { id: 'constructor', kind: 'respond', position: { x: 200, y: 0 }, config: {} },
    ],
    edges: [{ id: 'hasOwnProperty', source: 'toString', target: 'constructor' }],
  };

  it('have no visits, reasons or breakpoints they did not get', () => {
    const overlay = { currentNode: null, firedEdge: null, firedReason: null, triedEdges: {}, nodeVisits: {}, edgeVisits: {} };
    const extras = { overlay, selectedNodes: [], selectedEdges: [], nodeBreakpoints: [], edgeBreakpoints: [] };
    expect(toFlowNodes(graph, extras).map((node) => node.data.visits)).toEqual([0, 0]);
    const [edge] = toFlowEdges(graph, extras);
    expect(edge.data).toMatchObject({ visits: 0, notTaken: null, breakpoint: false });
  });
});

describe('toFlowEdges', () => {
  it('labels edges in words and leaves from the outcome handle', () => {
    const edges = toFlowEdges(securityclaw());
    const byId = Object.fromEntries(edges.map((edge) => [edge.id, edge]));
    expect(byId.e3.sourceHandle).toBe('sufficient');
    expect(byId.e3.data!.label).toBe('outcome: sufficient');
    expect(byId.e4.sourceHandle).toBe(GENERAL_HANDLE);
    expect(byId.e4.data!.label).toBe('plan_exhausted = true');
    expect(byId.e5.data!.label).toBe('otherwise');
    expect(byId.e1.data!.label).toBe('always');
    expect(byId.e6.sourceHandle).toBe('recovered');
  });

  it('keeps edges from different outcomes to one target apart', () => {
    let graph = securityclaw();
    graph = connect(graph, 'execute', 'recover', 'empty');
    graph = connect(graph, 'execute', 'recover', 'error');
    const toRecover = toFlowEdges(graph).filter((edge) => edge.source === 'execute' && edge.target === 'recover');
    expect(toRecover.map((edge) => edge.sourceHandle)).toEqual(['empty', 'error']);
    expect(toRecover.map((edge) => edge.data!.label)).toEqual(['outcome: empty', 'outcome: error']);
  });

  it('an outcome the kind does not have falls back to the general handle', () => {
    const graph = securityclaw();
    graph.edges[0] = { ...graph.edges[0], when: { outcome: 'not_an_outcome' } };
    expect(toFlowEdges(graph)[0].sourceHandle).toBe(GENERAL_HANDLE);
  });
});

describe('findBackEdges', () => {
  it('finds the loops of SecurityClaw: re-plan, recovered and approved', () => {
    expect([...findBackEdges(securityclaw())].sort()).toEqual(['e5', 'e6', 'e9']);
    expect(toFlowEdges(securityclaw()).filter((edge) => edge.data!.backEdge).map((edge) => edge.className)).toEqual(['back-edge', 'back-edge', 'back-edge']);
  });

  it('finds the Graph Engineer loops back (to reason, and from approval to act) and nothing on a chain', () => {
    const graph = findTemplate('graph-engineer')!.graph();
    const back = findBackEdges(graph);
    expect(graph.edges.filter((candidate) => back.has(candidate.id)).map((edge) => `${edge.source}→${edge.target}`).sort()).toEqual(['ask→run', 'check→think', 'run→think']);
    const chain: GraphFile = { ...graph, edges: graph.edges.filter((candidate) => !back.has(candidate.id)) };
    expect(findBackEdges(chain).size).toBe(0);
  });

  it('counts a self-loop and survives a long chain', () => {
    const graph = securityclaw();
    expect(findBackEdges(connect(graph, 'execute', 'execute', 'error')).size).toBe(4);
    const long: GraphFile = {
      ...graph,
      entry: 'n0',
      nodes: Array.from({ length: 20000 }, (_, index) => ({ ...graph.nodes[1], id: `n${index}` })),
      edges: Array.from({ length: 19999 }, (_, index) => ({ id: `e${index}`, source: `n${index}`, target: `n${index + 1}` })),
    };
    expect(findBackEdges(long).size).toBe(0);
  });
});

describe('flow objects keep their identity', () => {
  const render = (graph: GraphFile, extras: FlowExtras, cache: ReturnType<typeof createFlowCache>) => ({
    nodes: toFlowNodes(graph, extras, cache),
    edges: toFlowEdges(graph, extras, cache),
  });
  const changed = <T extends { id: string }>(before: T[], after: T[]) => after.filter((item, index) => item !== before[index]).map((item) => item.id).sort();

  it('moving one node gives new objects for that node and its edges only', () => {
    const cache = createFlowCache();
    const graph = securityclaw();
    const first = render(graph, NO_EXTRAS, cache);
    // A nudge that moves no label: only what is drawn from the moved node changes.
    const { x, y } = graph.nodes.find((node) => node.id === 'answer')!.position;
    const moved = moveNodes(graph, new Map([['answer', { x: x + 1, y }]]));
    const second = render(moved, NO_EXTRAS, cache);
    expect(changed(first.nodes, second.nodes)).toEqual(['answer']);
    const touching = graph.edges.filter((edge) => edge.source === 'answer' || edge.target === 'answer').map((edge) => edge.id).sort();
    expect(touching.length).toBeGreaterThan(0);
    expect(changed(first.edges, second.edges).every((id) => touching.includes(id))).toBe(true);
    expect(second.nodes.find((node) => node.id === 'answer')!.position).toEqual(moved.nodes.find((node) => node.id === 'answer')!.position);
  });

  it('a list whose every object is reused is the very same list: a drag move keeps the edge list', () => {
    const cache = createFlowCache();
    const graph = securityclaw();
    const nodes = toFlowNodes(graph, NO_EXTRAS, cache);
    const edges = toFlowEdges(graph, NO_EXTRAS, cache);
    expect(toFlowNodes(graph, NO_EXTRAS, cache)).toBe(nodes);
    // Routes and label places are not in the edge objects: a move changes no edge object.
    const { x, y } = graph.nodes.find((node) => node.id === 'answer')!.position;
    const moved = moveNodes(graph, new Map([['answer', { x: x + 40, y: y + 40 }]]));
    expect(toFlowNodes(moved, NO_EXTRAS, cache)).not.toBe(nodes);
    expect(toFlowEdges(moved, NO_EXTRAS, cache)).toBe(edges);
    const selected = toFlowEdges(moved, { ...NO_EXTRAS, selectedEdges: ['e4'] }, cache);
    expect(selected).not.toBe(edges);
    expect(changed(edges, selected)).toEqual(['e4']);
  });

  it('a move keeps every other node object without making it again, and an edit of outcomes renews the edges', () => {
    const cache = createFlowCache();
    const graph = securityclaw();
    const nodes = toFlowNodes(graph, NO_EXTRAS, cache);
    const edges = toFlowEdges(graph, NO_EXTRAS, cache);
    // Each move after the first touches the moved node alone: the list is copied, the rest kept as they are.
    let moved = graph;
    for (let step = 1; step <= 3; step += 1) {
      moved = moveNodes(moved, new Map([['execute', { x: step, y: step }]]));
      const next = toFlowNodes(moved, NO_EXTRAS, cache);
      expect(changed(nodes, next)).toEqual(['execute']);
      expect(next.find((node) => node.id === 'execute')!.position).toEqual({ x: step, y: step });
      expect(toFlowEdges(moved, NO_EXTRAS, cache)).toBe(edges);
    }
    // An act node that gains a loop gains the max_iter outcome: an edge taking it leaves from that handle now.
    const looping = connect(moved, 'execute', 'answer', 'max_iter');
    const before = toFlowEdges(looping, NO_EXTRAS, cache).at(-1)!;
    expect(before.sourceHandle).toBe(GENERAL_HANDLE);
    const withLoop = updateNode(looping, 'execute', (node) => ({ ...node, config: { ...node.config, loop: { decider: 'planner', tools: [], maxIter: 3 } } }) as typeof node);
    expect(toFlowEdges(withLoop, NO_EXTRAS, cache).at(-1)!.sourceHandle).toBe('max_iter');
  });

  it('the same inputs give the very same objects, and each extra renews only what it marks', () => {
    const cache = createFlowCache();
    const graph = securityclaw();
    const first = render(graph, NO_EXTRAS, cache);
    const again = render(graph, { ...NO_EXTRAS }, cache);
    expect(changed(first.nodes, again.nodes)).toEqual([]);
    expect(changed(first.edges, again.edges)).toEqual([]);
    const selected = render(graph, { ...NO_EXTRAS, selectedNodes: ['execute'], edgeBreakpoints: ['e4'] }, cache);
    expect(changed(again.nodes, selected.nodes)).toEqual(['execute']);
    expect(selected.nodes.find((node) => node.id === 'execute')!.selected).toBe(true);
    expect(changed(again.edges, selected.edges)).toEqual(['e4']);
    expect(selected.edges.find((edge) => edge.id === 'e4')!.data!.breakpoint).toBe(true);
    const overlay = { currentNode: 'evaluate', firedEdge: 'e5', firedReason: 'otherwise', triedEdges: {}, nodeVisits: { decide: 2 }, edgeVisits: {} };
    const running = render(graph, { ...NO_EXTRAS, overlay, selectedNodes: ['execute'], edgeBreakpoints: ['e4'] }, cache);
    expect(changed(selected.nodes, running.nodes)).toEqual(['decide', 'evaluate']);
    expect(changed(selected.edges, running.edges)).toContain('e5');
  });

  it('an edit of a node renews its flow object and its data', () => {
    const cache = createFlowCache();
    const graph = securityclaw();
    const first = render(graph, NO_EXTRAS, cache);
    const renamed = updateNode(graph, 'execute', (node) => ({ ...node, label: 'Run it' }));
    const second = render(renamed, NO_EXTRAS, cache);
    expect(changed(first.nodes, second.nodes)).toEqual(['execute']);
    expect(second.nodes.find((node) => node.id === 'execute')!.data.node.label).toBe('Run it');
  });

  it('with its cache gives what a computation from nothing gives, through moves, selections and breakpoints', () => {
    const graph = readGenerated(gridGraph(120, 180));
    const ids = graph.nodes.map((node) => node.id);
    const edgeIds = graph.edges.map((edge) => edge.id);
    const step = fc.oneof(
      fc.record({ move: fc.constantFrom(...ids), x: fc.integer({ min: -900, max: 900 }), y: fc.integer({ min: -900, max: 900 }) }),
      fc.record({ select: fc.subarray(ids, { maxLength: 3 }) }),
      fc.record({ selectEdges: fc.subarray(edgeIds, { maxLength: 2 }) }),
      fc.record({ breakpoint: fc.constantFrom(...ids) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 10 }), (steps) => {
        const cache = createFlowCache();
        let current = graph;
        let extras: FlowExtras = NO_EXTRAS;
        for (const one of [null, ...steps]) {
          if (one && 'move' in one) current = moveNodes(current, new Map([[one.move, { x: one.x, y: one.y }]]));
          else if (one && 'select' in one) extras = { ...extras, selectedNodes: one.select };
          else if (one && 'selectEdges' in one) extras = { ...extras, selectedEdges: one.selectEdges };
          else if (one) extras = { ...extras, nodeBreakpoints: [...extras.nodeBreakpoints, one.breakpoint] };
          expect(toFlowNodes(current, extras, cache)).toEqual(toFlowNodes(current, extras));
          expect(toFlowEdges(current, extras, cache)).toEqual(toFlowEdges(current, extras));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('selecting a node renews that node alone and keeps the edge list', () => {
    const cache = createFlowCache();
    const graph = securityclaw();
    const first = render(graph, NO_EXTRAS, cache);
    const selected = render(graph, { ...NO_EXTRAS, selectedNodes: ['execute'] }, cache);
    expect(changed(first.nodes, selected.nodes)).toEqual(['execute']);
    expect(selected.edges).toBe(first.edges);
    const other = render(graph, { ...NO_EXTRAS, selectedNodes: ['answer'] }, cache);
    expect(changed(selected.nodes, other.nodes)).toEqual(['answer', 'execute']);
    expect(other.edges).toBe(first.edges);
  });

  it('gives each node the size the geometry draws it at, so React Flow need not measure it first', () => {
    const graph = securityclaw();
    for (const node of toFlowNodes(graph)) expect(node.measured).toEqual({ width: nodeWidth(node.data.node), height: nodeHeight(node.data.node, graph.skills) });
  });
});

describe('withPositions', () => {
  it('moves the dragged nodes alone: every other node keeps its object, so React Flow redraws only those', () => {
    const nodes = toFlowNodes(securityclaw());
    const [first, second] = nodes;
    const moved = withPositions(nodes, new Map([[first.id, { x: first.position.x + 40, y: 7 }], [second.id, second.position]]));
    expect(moved[0]).not.toBe(first);
    expect(moved[0].position).toEqual({ x: first.position.x + 40, y: 7 });
    expect(moved[0].data).toBe(first.data);
    // A node "moved" to where it is, and every node not dragged, is the same object.
    expect(moved.slice(1).every((node, index) => node === nodes[index + 1])).toBe(true);
  });

  it("moves the document's nodes alike, for the minimap", () => {
    const nodes = securityclaw().nodes;
    const shown = withPositions(nodes, new Map([[nodes[1].id, { x: 5, y: 6 }]]));
    expect(shown[1]).toEqual({ ...nodes[1], position: { x: 5, y: 6 } });
    expect(shown.filter((node, index) => node !== nodes[index])).toHaveLength(1);
  });
});
