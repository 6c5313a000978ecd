import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { parseGraph, parseUntrusted } from './parse.ts';
import { checkValue, readJson } from './untrusted.ts';

const nested = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

describe('checkValue', () => {
  it('finds forbidden keys in arrays and objects, with their paths', () => {
    expect(checkValue(JSON.parse('[{"a": {"constructor": 1}}, {"__proto__": 2}]')).map((problem) => problem.path)).toEqual(['[0].a.constructor', '[1].__proto__']);
    expect(checkValue({ a: [1, 'x', null, { b: true }] })).toEqual([]);
  });

  it('refuses nesting past the depth limit without recursion, at the first level too deep', () => {
    expect(checkValue(JSON.parse(nested(LIMITS.depth)))).toEqual([]);
    const [problem] = checkValue(JSON.parse(nested(200_000)));
    expect(problem.message).toBe(`nested deeper than ${LIMITS.depth} levels`);
    expect(problem.path).toBe('[0]'.repeat(LIMITS.depth));
  });

  it('refuses numbers JSON text can write but a number cannot hold', () => {
    expect(checkValue(JSON.parse('{"position": {"x": 1e400, "y": -1e400}}'))).toEqual([
      { path: 'position.x', message: 'a number too large to hold (beyond ±1.8e308)' },
      { path: 'position.y', message: 'a number too large to hold (beyond ±1.8e308)' },
    ]);
  });

  it('refuses arrays and objects with too many items, without walking them', () => {
    expect(checkValue({ list: Array.from({ length: LIMITS.items + 1 }, () => 0) })).toEqual([{ path: 'list', message: `has ${LIMITS.items + 1} items; at most ${LIMITS.items} are allowed` }]);
    expect(checkValue(Object.fromEntries(Array.from({ length: LIMITS.items + 1 }, (_, n) => [`k${n}`, n])))[0].message).toMatch(/keys; at most/);
  });

  it('gives longer limits to the lists named at the top level of the document, and only there', () => {
    const limits = { textChars: 100, depth: 8, items: 2, lists: { steps: 4 } };
    expect(checkValue({ steps: [1, 2, 3, 4] }, limits)).toEqual([]);
    expect(checkValue({ steps: [1, 2, 3, 4, 5] }, limits)).toEqual([{ path: 'steps', message: 'has 5 items; at most 4 are allowed' }]);
    expect(checkValue({ other: [1, 2, 3] }, limits)[0].message).toBe('has 3 items; at most 2 are allowed');
    expect(checkValue({ nested: { steps: [1, 2, 3] } }, limits)[0].path).toBe('nested.steps');
    // A key an object inherits names no limit.
    expect(checkValue({ toString: [1, 2, 3] }, limits)[0].path).toBe('toString');
  });

  it('reports at most twenty problems however many there are', () => {
    expect(checkValue(Array.from({ length: 5000 }, () => ({ __proto__: null, constructor: 1 })))).toHaveLength(20);
  });

  it('puts paths under a base', () => {
    expect(checkValue({ prototype: 1 }, LIMITS, ['nodes', 2, 'config'])).toEqual([{ path: 'nodes[2].config.prototype', message: 'the key "prototype" is not allowed anywhere in a file' }]);
  });
});

describe('readJson', () => {
  it('refuses text over the size limit before parsing it', () => {
    expect(readJson('x'.repeat(LIMITS.textChars + 1))).toEqual({ ok: false, problems: [{ path: '', message: 'too large: 8.0 MB of text, at most 8.0 MB can be opened' }] });
  });

  it('drops a byte order mark an editor left', () => {
    expect(readJson('\uFEFF{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('says what is not JSON', () => {
    const result = readJson('{"a": ');
    expect(result.ok === false && result.problems[0].message).toMatch(/^not JSON: /);
  });
});

describe('parseUntrusted', () => {
  const State = z.record(z.string(), z.unknown());

  it('checks text and values against the limits before the schema', () => {
    expect(parseUntrusted(State, '{"a": {"__proto__": {"polluted": true}}}')).toEqual({ ok: false, problems: [{ path: 'a.__proto__', message: 'the key "__proto__" is not allowed anywhere in a file' }] });
    expect(parseUntrusted(State, JSON.parse('{"constructor": {}}'))).toMatchObject({ ok: false, problems: [{ path: 'constructor' }] });
    expect(parseUntrusted(State, '{"a": [1, 2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('parseGraph with hostile input', () => {
  const graph = (extra: Record<string, unknown>) => ({ format: 'loopscope/graph', version: 1, name: 'g', entry: 'a', nodes: [{ id: 'a', kind: 'stop' }], ...extra });
  const problems = (input: unknown) => {
    const result = parseGraph(input);
    return result.ok ? [] : result.problems.map((problem) => `${problem.path}: ${problem.message}`);
  };

  it('refuses 2,000 levels of state with the path where it goes too deep', () => {
    let state: unknown = 1;
    for (let level = 0; level < 2000; level += 1) state = { deeper: state };
    const [first] = problems(JSON.stringify(graph({ state })));
    expect(first).toMatch(/^state(\.deeper)+: nested deeper than 64 levels$/);
  });

  it('refuses 1,500 nested "not" as too deep, and 17 as too much nesting for a condition', () => {
    const not = (depth: number) => {
      let when: unknown = 'always';
      for (let level = 0; level < depth; level += 1) when = { not: when };
      return when;
    };
    expect(problems(JSON.stringify(graph({ edges: [{ id: 'e', source: 'a', target: 'a', when: not(1500) }] })))[0]).toMatch(/^edges\[0\]\.when(\.not)+: nested deeper than 64 levels$/);
    expect(problems(graph({ edges: [{ id: 'e', source: 'a', target: 'a', when: not(16) }] }))).toEqual(['edges[0].when: conditions nest at most 16 levels deep (all, any, not)']);
    expect(problems(graph({ edges: [{ id: 'e', source: 'a', target: 'a', when: not(15) }] }))).toEqual([]);
  });

  it('says 1e400 is too large, not "expected a number, got a number"', () => {
    expect(problems('{"format":"loopscope/graph","version":1,"name":"g","entry":"a","nodes":[{"id":"a","kind":"stop","position":{"x":1e400,"y":0}}]}')).toEqual([
      'nodes[0].position.x: a number too large to hold (beyond ±1.8e308)',
    ]);
  });

  it('refuses positions that would not draw', () => {
    expect(problems(graph({ nodes: [{ id: 'a', kind: 'stop', position: { x: -1.7e308, y: 0 } }] }))).toEqual([`nodes[0].position.x: must be at least -${LIMITS.coordinate}`]);
  });

  it('refuses references that are not ids, so no control character or markup reaches an export', () => {
    expect(problems(graph({ edges: [{ id: 'e', source: 'a', target: 'a\nclick a "javascript:alert(1)"' }] }))).toEqual(['edges[0].target: an id is letters, digits, _ or -, starting with a letter or _']);
    expect(problems(graph({ entry: '\u001b[2J' }))).toEqual(['entry: an id is letters, digits, _ or -, starting with a letter or _']);
  });

  it('refuses a mock script longer than the limit, naming the limit', () => {
    const script = Array.from({ length: LIMITS.scriptEntries + 1 }, () => ({ outcome: 'ok' }));
    expect(problems(graph({ skills: { s: { type: 'mock', script } } }))).toEqual([`skills.s.script: has too many items: at most ${LIMITS.scriptEntries}`]);
    expect(problems(graph({ skills: { s: { type: 'mock', script: Array.from({ length: 1_000_000 }, () => ({ outcome: "ok" })) } } }))).toEqual([`skills.s.script: has 1000000 items; at most ${LIMITS.items} are allowed`]);
  });

  it('opens a graph of as many nodes and edges as the limits allow, and refuses one node more, naming the limit', () => {
    const nodes = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `n${index}`, kind: 'stop', position: { x: (index % 40) * 260, y: Math.floor(index / 40) * 240 } }));
    const edges = Array.from({ length: LIMITS.edges }, (_, index) => ({ id: `e${index}`, source: `n${index % LIMITS.nodes}`, target: `n${(index + 1) % LIMITS.nodes}` }));
    const full = parseGraph(JSON.stringify(graph({ entry: 'n0', nodes: nodes(LIMITS.nodes), edges })));
    expect(full.ok && [full.value.nodes.length, full.value.edges.length]).toEqual([LIMITS.nodes, LIMITS.edges]);
    expect(problems(graph({ entry: 'n0', nodes: nodes(LIMITS.nodes + 1) }))).toEqual([`nodes: has too many items: at most ${LIMITS.nodes}`]);
  });

  it('accepts ids that are names of Object methods', () => {
    const result = parseGraph('{"format":"loopscope/graph","version":1,"name":"crash","entry":"toString","nodes":[{"id":"toString","kind":"stop"}]}');
    expect(result.ok && result.value.nodes[0].id).toBe('toString');
  });
});
