/**
 * The hostile inputs too large to keep as files, made on demand, each with the answer it must get
 * (the same shape as answers.json). They reproduce the sizes of issue 13.
 */
export interface Answer {
  why: string;
  validate: { exit: number; says: string };
}

export interface GeneratedCase {
  name: string;
  text: () => string;
  answer: Answer;
}

const graph = (extra: Record<string, unknown>) => ({ format: 'loopscope/graph', version: 1, name: 'big', entry: 'n0', nodes: [{ id: 'n0', kind: 'stop' }], ...extra });

/** JSON text of a value nested deeper than JSON.stringify could write (it recurses). */
const deepText = (prefix: string, depth: number, open: string, leaf: string, close: string, suffix: string) =>
  `${prefix}${open.repeat(depth)}${leaf}${close.repeat(depth)}${suffix}`;

export const GENERATED: readonly GeneratedCase[] = [
  {
    name: 'deep-state.json',
    text: () => deepText('{"format":"loopscope/graph","version":1,"name":"g","entry":"a","nodes":[{"id":"a","kind":"stop"}],"state":', 2000, '{"deeper":', '1', '}', '}'),
    answer: { why: '2,000 levels of state overflowed the stack (issue 13, #4)', validate: { exit: 2, says: 'state.deeper.deeper' } },
  },
  {
    name: 'deep-not.json',
    text: () => deepText('{"format":"loopscope/graph","version":1,"name":"g","entry":"a","nodes":[{"id":"a","kind":"stop"}],"edges":[{"id":"e","source":"a","target":"a","when":', 1500, '{"not":', '"always"', '}', '}]}'),
    answer: { why: '1,500 nested "not" overflowed the stack (issue 13, #4)', validate: { exit: 2, says: 'nested deeper than 64 levels' } },
  },
  {
    name: 'nodes-20k.json',
    text: () => JSON.stringify(graph({ nodes: Array.from({ length: 20_000 }, (_, index) => ({ id: `n${index}`, kind: 'stop' })) })),
    answer: { why: '20k nodes froze the page for minutes (issue 13, #5)', validate: { exit: 2, says: 'nodes: has too many items: at most 1000' } },
  },
  {
    name: 'edges-100k.json',
    text: () => JSON.stringify(graph({ edges: Array.from({ length: 100_000 }, (_, index) => ({ id: `e${index}`, source: 'n0', target: 'n0' })) })),
    answer: { why: '100k edges froze the page (issue 13, #5)', validate: { exit: 2, says: 'edges: has 100000 items; at most 20000 are allowed' } },
  },
  {
    name: 'script-1e6.json',
    text: () => JSON.stringify(graph({ skills: { s: { type: 'mock', script: Array.from({ length: 1_000_000 }, () => ({ outcome: 'ok' })) } } })),
    answer: { why: 'a 1e6-entry mock script froze the page (issue 13, #5)', validate: { exit: 2, says: 'too large: 17.0 MB of text, at most 8.0 MB can be opened' } },
  },
  {
    name: 'wide-state.json',
    text: () => JSON.stringify(graph({ state: { list: Array.from({ length: 50_000 }, (_, index) => index) } })),
    answer: { why: 'one list with more items than anything in a graph needs', validate: { exit: 2, says: 'state.list: has 50000 items; at most 20000 are allowed' } },
  },
];
