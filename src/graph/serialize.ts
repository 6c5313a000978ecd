import type { GraphFile } from './schema.ts';

/** `JSON.stringify(value, null, 2)` as it reads `depth` levels down in a bigger document. */
const indented = (value: unknown, depth: number) => JSON.stringify(value, null, 2).replaceAll('\n', `\n${'  '.repeat(depth)}`);

/**
 * Each node's and edge's text in the file, per object: an edit replaces what it changes, so a save
 * after a drag writes the moved node again and joins the rest (a 5,000-node graph was 15-90 ms of
 * one task to write whole, on every autosave).
 */
const pieces = new WeakMap<object, string>();
const piece = (item: unknown) => {
  if (typeof item !== 'object' || item === null) return JSON.stringify(item) ?? 'null';
  let text = pieces.get(item);
  if (text === undefined) pieces.set(item, (text = indented(item, 2)));
  return text;
};
/**
 * Writes the texts of up to `count` of the graph's nodes and edges not written yet, ahead of its
 * first save (a graph just opened has none, and its first save would write them all in one task).
 * True once every one is written.
 */
export const prepareSerialization = (graph: GraphFile, count: number): boolean => {
  let left = count;
  for (const items of [graph.nodes, graph.edges] as readonly object[][])
    for (const item of items) {
      if (pieces.has(item)) continue;
      if (left === 0) return false;
      piece(item);
      left -= 1;
    }
  return true;
};
/**
 * The file a graph is saved as, written `slice` nodes or edges at a time: it yields between slices,
 * so that a caller can write a big graph over several tasks (autosave.ts), and returns the text.
 * The pieces are joined once, in a step of their own: joining each list and then the fields copied
 * a 10,000-node graph's text twice in the step that wrote its last slice.
 */
export function* serializeInSlices(graph: GraphFile, slice = Number.POSITIVE_INFINITY): Generator<void, string> {
  const out: string[] = [];
  for (const [key, value] of Object.entries(graph)) {
    // What JSON leaves out of an object.
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    out.push(`${out.length === 0 ? '{' : ','}\n  ${JSON.stringify(key)}: `);
    if ((key === 'nodes' || key === 'edges') && Array.isArray(value) && value.length > 0) {
      for (let start = 0; start < value.length; start += slice) {
        if (start > 0) yield;
        out.push(start === 0 ? '[\n    ' : ',\n    ', value.slice(start, start + slice).map(piece).join(',\n    '));
      }
      out.push('\n  ]');
    } else out.push(indented(value, 1));
  }
  if (out.length === 0) return '{}\n';
  yield;
  out.push('\n}\n');
  return out.join('');
}

/**
 * The file a graph is saved as: stable key order, two-space indent, a final newline. The very text
 * of `JSON.stringify(graph, null, 2)`, its nodes and edges written from `pieces`.
 */
export const serializeGraph = (graph: GraphFile): string => {
  const steps = serializeInSlices(graph);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
};

/**
 * The graph id a LangGraph server knows an exported graph by (`loopscope export`, `serve`): the
 * graph's name in lower-case words joined by `-`.
 */
export const graphIdOf = (graph: Pick<GraphFile, 'name'>): string => graph.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'graph';
