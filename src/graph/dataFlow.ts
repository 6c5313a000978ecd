/**
 * Problems of data flow, found before a run: a node the run can reach with a field it needs written
 * by no node on that way (`unwritten_read`). What a kind needs and writes comes from its definition
 * (kinds/); validateGraph reports these with the others.
 */
import { KIND_LIST, kindDefinition } from './kinds/index.ts';
import type { GraphEdge, GraphFile } from './schema.ts';

interface Shape {
  outgoing: ReadonlyMap<string, readonly GraphEdge[]>;
  ids: ReadonlySet<string>;
}
import type { Problem } from './validate.ts';

const quoted = (fields: readonly string[]) => fields.map((field) => `"${field}"`).join(' or ');
const writersOf = (fields: readonly string[]) =>
  KIND_LIST.filter((kind) => kind.writes.some((field) => fields.includes(field))).map((kind) => `${/^[AEIOU]/.test(kind.title) ? 'an' : 'a'} ${kind.title}`).join(' or ');

/**
 * For a group of fields: the nodes the run can reach with none of them written (no node before it
 * on the way from the entry writes one), each with the node it came from, for the way there. One
 * pass over the graph: a node that writes the group is reached, and passes nothing on.
 */
const reachedUnwritten = (graph: GraphFile, fields: readonly string[], { outgoing, ids }: Shape) => {
  const writes = new Set(graph.nodes.filter((node) => kindDefinition(node.kind).writes.some((field) => fields.includes(field))).map((node) => node.id));
  const cameFrom = new Map<string, string | null>([[graph.entry, null]]);
  const queue = [graph.entry];
  for (let at = 0; at < queue.length; at += 1) {
    const id = queue[at];
    if (writes.has(id)) continue;
    for (const { target } of outgoing.get(id) ?? []) {
      if (cameFrom.has(target) || !ids.has(target)) continue;
      cameFrom.set(target, id);
      queue.push(target);
    }
  }
  return cameFrom;
};

/** The way from the entry to `id` that `reachedUnwritten` found. */
const wayTo = (cameFrom: ReadonlyMap<string, string | null>, id: string) => {
  const way = [id];
  for (let previous = cameFrom.get(id); previous !== null && previous !== undefined; previous = cameFrom.get(previous)) way.unshift(previous);
  return way;
};

/**
 * A node the run can reach with a field it needs written by no node before it on that way, nor held
 * by the initial state: on that way it works on nothing, or on a value an earlier round left (a
 * Recover reached from Act's error would diagnose the last round's evaluation, not this failure).
 */
const unwrittenReadProblems = (graph: GraphFile, shape: Shape): Problem[] => {
  if (!shape.ids.has(graph.entry)) return [];
  const reached = new Map<string, ReadonlyMap<string, string | null>>();
  const problems: Problem[] = [];
  for (const node of graph.nodes) {
    const needs = (kindDefinition(node.kind).needs as ((config: unknown) => readonly (readonly string[])[]) | undefined)?.(node.config) ?? [];
    for (const fields of needs) {
      if (fields.some((field) => Object.hasOwn(graph.state, field))) continue;
      const key = fields.join(' ');
      let cameFrom = reached.get(key);
      if (!cameFrom) reached.set(key, (cameFrom = reachedUnwritten(graph, fields, shape)));
      if (!cameFrom.has(node.id)) continue;
      problems.push({
        code: 'unwritten_read',
        severity: 'warning',
        message: `${node.id} reads ${quoted(fields)}, but on the way ${wayTo(cameFrom, node.id).join(' → ')} no node before it writes ${fields.length === 1 ? 'it' : 'them'} (${writersOf(fields)} node does): there it works on nothing, or on what an earlier round left.`,
        nodeId: node.id,
      });
    }
  }
  return problems;
};

/** `shape`: the graph's edges by source in file order and its node ids, which validate.ts has made once for all its checks. */
export const dataFlowProblems = (graph: GraphFile, shape: Shape): Problem[] => unwrittenReadProblems(graph, shape);
