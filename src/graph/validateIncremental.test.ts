/**
 * The check after an edit (checkGraph with the check before it) finds what a check from scratch
 * finds, in the same order, on random sequences of edits of real graphs: the fixtures and the
 * templates. A part kept that the edit reached would show as a problem missed or left behind.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addNode, connect, moveNodes, removeEdges, removeNodes, updateEdge } from './ops.ts';
import { parseGraph } from './parse.ts';
import type { GraphFile, GraphNode } from './schema.ts';
import { TEMPLATES } from './templates/index.ts';
import { checkGraph, validateGraph, type CheckedGraph } from './validate.ts';
import type { When } from './when.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const graphs: { name: string; graph: GraphFile }[] = [
  ...readdirSync(FIXTURES).flatMap((file) => {
    const parsed = parseGraph(readFileSync(join(FIXTURES, file), 'utf8'));
    return parsed.ok ? [{ name: file, graph: parsed.value }] : [];
  }),
  ...TEMPLATES.map((template) => ({ name: template.id, graph: template.graph() })),
];

/** An edit as a person makes one, its targets picked by number from what the graph has then. */
type Edit = (graph: GraphFile) => GraphFile;

const pick = <T>(items: readonly T[], at: number): T | undefined => (items.length === 0 ? undefined : items[at % items.length]);
const withNode = (graph: GraphFile, at: number, change: (node: GraphNode) => GraphNode): GraphFile => {
  const node = pick(graph.nodes, at);
  return node ? { ...graph, nodes: graph.nodes.map((each) => (each === node ? change(each) : each)) } : graph;
};

const WHENS: (When | undefined)[] = [undefined, 'always', 'otherwise', { outcome: 'ok' }, { outcome: 'error' }, { outcome: 'sufficient' }, { path: 'evaluation.reason', op: 'eq', value: 'coverage_low' }, { path: 'nowhere.field', op: 'contains' }, { path: 'recovery.tried', op: 'contains', value: 'x' }];

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.nat().map((at): Edit => (graph) => withNode(graph, at, (node) => ({ ...node, label: `Renamed ${at}` }))),
  fc.tuple(fc.nat(), fc.nat()).map(([at, from]): Edit => (graph) => {
    // A field edit: the config of another node of the same kind (a skill, a loop, plans, rules, maxIter…).
    const node = pick(graph.nodes, at);
    const like = node && pick(graph.nodes.filter((other) => other.kind === node.kind), from);
    return node && like ? withNode(graph, at, (each) => ({ ...each, config: like.config }) as GraphNode) : graph;
  }),
  fc.tuple(fc.nat(), fc.integer({ min: -50, max: 50 })).map(([at, by]): Edit => (graph) => {
    const node = pick(graph.nodes, at);
    return node ? moveNodes(graph, new Map([[node.id, { x: node.position.x + by, y: node.position.y }]])) : graph;
  }),
  fc.nat().map((at): Edit => (graph) => {
    const node = pick(graph.nodes, at);
    return node ? removeNodes(graph, [node.id]) : graph;
  }),
  fc.tuple(fc.nat(), fc.nat()).map(([at, id]): Edit => (graph) => {
    const node = pick(graph.nodes, at);
    return node ? addNode(graph, { ...node, id: `copy${id}`, position: { x: 0, y: 0 } }) : graph;
  }),
  fc.tuple(fc.nat(), fc.nat(), fc.option(fc.constantFrom('ok', 'error', 'sufficient', 'exhausted', 'empty'))).map(([from, to, outcome]): Edit => (graph) => {
    const [source, target] = [pick(graph.nodes, from), pick(graph.nodes, to)];
    return source && target ? connect(graph, source.id, target.id, outcome) : graph;
  }),
  fc.nat().map((at): Edit => (graph) => {
    const edge = pick(graph.edges, at);
    return edge ? removeEdges(graph, [edge.id]) : graph;
  }),
  fc.tuple(fc.nat(), fc.nat()).map(([at, which]): Edit => (graph) => {
    const edge = pick(graph.edges, at);
    const when = pick(WHENS, which);
    return edge ? updateEdge(graph, edge.id, (each) => {
      const changed = { ...each, when };
      if (when === undefined) delete changed.when;
      return changed;
    }) : graph;
  }),
  fc.tuple(fc.nat(), fc.nat()).map(([at, to]): Edit => (graph) => {
    // An edge led elsewhere, or to a node the graph does not have.
    const edge = pick(graph.edges, at);
    const target = pick(graph.nodes, to)?.id ?? 'gone';
    return edge ? updateEdge(graph, edge.id, (each) => ({ ...each, target: to % 5 === 0 ? 'gone' : target })) : graph;
  }),
  fc.tuple(fc.nat(), fc.nat()).map(([at, as]): Edit => (graph) => {
    // A node renamed to another's id: duplicate ids, and edges that lead to the other.
    const other = pick(graph.nodes, as);
    return other ? withNode(graph, at, (node) => ({ ...node, id: other.id })) : graph;
  }),
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]): Edit => (graph) => {
    // Two nodes change places in the list: every path naming their index changes.
    if (graph.nodes.length < 2) return graph;
    const [i, j] = [a % graph.nodes.length, b % graph.nodes.length];
    const nodes = [...graph.nodes];
    [nodes[i], nodes[j]] = [nodes[j], nodes[i]];
    return { ...graph, nodes };
  }),
  fc.nat().map((at): Edit => (graph) => ({ ...graph, entry: pick(graph.nodes, at)?.id ?? '' })),
  fc.constantFrom<GraphFile['permissions']['mode']>('read-only', 'workspace', 'full').map((mode): Edit => (graph) => ({ ...graph, permissions: { ...graph.permissions, mode } })),
  fc.nat().map((at): Edit => (graph) => {
    const name = pick(Object.keys(graph.skills), at);
    if (name === undefined) return graph;
    const { [name]: _, ...skills } = graph.skills;
    return { ...graph, skills };
  }),
  fc.constantFrom<Record<string, unknown>>({}, { evaluation: { reason: 'x' } }, { recovery: 'text' }, { round: 2 }).map((state): Edit => (graph) => ({ ...graph, state })),
);

/** Each check after an edit, from the one before it, against a check from scratch; the first that differs, if any. */
const firstDifference = (graph: GraphFile, edits: readonly Edit[], check = checkGraph) => {
  let checked: CheckedGraph = check(graph);
  let current = graph;
  for (const [at, change] of edits.entries()) {
    current = change(current);
    checked = check(current, checked);
    const full = validateGraph(current);
    if (JSON.stringify(checked.problems) !== JSON.stringify(full)) return { at, incremental: checked.problems, full };
  }
  return null;
};

describe('the check after an edit', () => {
  it.each(graphs)('finds what a check from scratch finds, after any edits of $name', ({ graph }) => {
    fc.assert(fc.property(fc.array(edit, { minLength: 1, maxLength: 12 }), (edits) => {
      expect(firstDifference(graph, edits)).toBeNull();
    }), { numRuns: 40 });
  });

  it('would be caught keeping what an edit reached: a check that keeps every part it had is told apart', () => {
    // The property's own test: a check that keeps the last answer for any graph (an affected set
    // that is always empty) differs from the check from scratch on some sequence of edits.
    const keepsEverything = (next: GraphFile, previous: CheckedGraph | null = null) => (previous ? checkGraph(next, { ...previous, graph: next }) : checkGraph(next));
    const found = fc.check(fc.property(fc.constantFrom(...graphs), fc.array(edit, { minLength: 1, maxLength: 6 }), ({ graph }, edits) => firstDifference(graph, edits, keepsEverything) === null), { numRuns: 200 });
    expect(found.failed).toBe(true);
  });

  it('keeps the very list when an edit changed no problem (a rename), and finds a new list when one did', () => {
    const graph = graphs.find((each) => each.name === 'securityclaw')!.graph;
    const checked = checkGraph(graph);
    const renamed = checkGraph(withNode(graph, 1, (node) => ({ ...node, label: 'Another name' })), checked);
    expect(renamed.problems).toBe(checked.problems);
    const cut = checkGraph(removeEdges(renamed.graph, [renamed.graph.edges[0].id]), renamed);
    expect(cut.problems).not.toBe(checked.problems);
    expect(cut.problems).toEqual(validateGraph(cut.graph));
  });
});
