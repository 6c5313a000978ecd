import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { graphFileArbitrary } from './arbitrary.ts';
import { updateNode } from './inspectorOps.ts';
import { moveNodes } from './ops.ts';
import { CURRENT_VERSION } from './schema.ts';
import { parseGraph, parseWith } from './parse.ts';
import { prepareSerialization, serializeGraph, serializeInSlices } from './serialize.ts';
import { describeProblems, formatPath, type ParseProblem } from './problems.ts';
import { RetryPolicy } from './commonSchemas.ts';
import { findTemplate } from './templates/index.ts';
import { validateGraph } from './validate.ts';
import specExample from './fixtures/spec-example.json';

/** A SecurityClaw document as plain JSON, to break in one place. */
const securityclaw = (): Record<string, any> => JSON.parse(serializeGraph(findTemplate('securityclaw')!.graph()));

const problemsOf = (input: unknown): ParseProblem[] => {
  const result = parseGraph(input);
  if (result.ok) throw new Error('expected the file to be refused');
  return result.problems;
};

const broken = (mutate: (document: Record<string, any>) => void): string[] => {
  const document = securityclaw();
  mutate(document);
  return problemsOf(document).map((problem) => `${problem.path}: ${problem.message}`);
};

describe('parseGraph accepts', () => {
  it('the same graph as text or as a value', () => {
    const text = serializeGraph(findTemplate('securityclaw')!.graph());
    const fromText = parseGraph(text);
    const fromValue = parseGraph(JSON.parse(text));
    expect(fromText.ok && fromValue.ok).toBe(true);
    expect(fromText).toEqual(fromValue);
    expect(fromText.ok && fromText.migratedFrom).toBeUndefined();
  });

  it('a minimal file, filling in the SPEC defaults', () => {
    const result = parseGraph({
      format: 'loopscope/graph', version: 1, name: 'tiny', entry: 'go',
      nodes: [{ id: 'go', kind: 'act', config: { skill: 'x' } }, { id: 'done', kind: 'respond' }],
      skills: { x: { type: 'mock', script: [{ outcome: 'ok' }] } },
    });
    if (!result.ok) throw new Error(describeProblems(result.problems));
    const graph = result.value;
    expect(graph.limits).toEqual({ maxRounds: 5, maxSteps: 50 });
    expect(graph.limits.tokenBudget).toBeUndefined();
    expect(graph.permissions).toEqual({ mode: 'read-only' });
    expect(graph.state).toEqual({});
    expect(graph.edges).toEqual([]);
    expect(graph.scenarios).toEqual([]);
    expect(graph.skills.x).toMatchObject({ access: 'read' });
    const [go, done] = graph.nodes;
    expect(go.position).toEqual({ x: 0, y: 0 });
    expect(go.kind === 'act' && go.config).toEqual({ skill: 'x', retry: { maxAttempts: 3, retryOn: ['timeout', 'parse_error'] }, maxIter: 5 });
    expect(done.config).toEqual({});
  });

  it('defaults of verify and stop nodes', () => {
    const result = parseGraph({
      format: 'loopscope/graph', version: 1, name: 'd', entry: 'v',
      nodes: [{ id: 'v', kind: 'verify' }, { id: 's', kind: 'stop' }],
    });
    expect(result.ok && result.value.nodes.map((node) => node.config)).toEqual([{ minRecords: 1 }, { reason: 'stopped' }]);
  });
});

describe('parseGraph refuses, naming the path', () => {
  it('text that is not JSON', () => {
    const [problem] = problemsOf('{"format": "loopscope/graph",');
    expect(problem.path).toBe('');
    expect(problem.message).toMatch(/^not JSON: /);
    expect(problemsOf('')[0].message).toMatch(/^not JSON/);
  });

  it('JSON that is not an object', () => {
    expect(problemsOf('[1, 2]')).toEqual([{ path: '', message: 'expected a Loopscope graph (a JSON object), got an array' }]);
    expect(problemsOf('null')[0].message).toMatch(/got null$/);
    expect(problemsOf('"graph"')[0].message).toMatch(/got a string$/);
  });

  it('a newer version, naming both versions', () => {
    const [problem] = problemsOf({ ...securityclaw(), version: CURRENT_VERSION + 1 });
    expect(problem.path).toBe('version');
    expect(problem.message).toContain(`version ${CURRENT_VERSION + 1}`);
    expect(problem.message).toContain(`0 to ${CURRENT_VERSION}`);
  });

  it('a version that is not a whole number', () => {
    for (const version of ['1', 1.5, -1, null]) {
      const [problem] = problemsOf({ ...securityclaw(), version });
      expect(problem.path).toBe('version');
      expect(problem.message).toContain('expected a version number');
    }
    expect(problemsOf({ format: 'loopscope/graph' })[0].path).toBe('version');
  });

  it('a missing or wrong format', () => {
    const { format: _format, ...rest } = securityclaw();
    expect(problemsOf(rest)).toEqual([{ path: 'format', message: 'required: expected "loopscope/graph"' }]);
    expect(problemsOf({ ...rest, format: 'loopscope/trace' })).toEqual([{ path: 'format', message: 'expected "loopscope/graph", got "loopscope/trace"' }]);
  });

  it('unknown keys at the top level, in nodes, in configs and in edges', () => {
    expect(broken((d) => { d.extra = true; })).toEqual(['extra: unknown key "extra" is not allowed here']);
    expect(broken((d) => { d.nodes[2].colour = 'red'; })).toEqual(['nodes[2].colour: unknown key "colour" is not allowed here']);
    expect(broken((d) => { d.nodes[3].config.retry = {}; })).toEqual(['nodes[3].config.retry: unknown key "retry" is not allowed here']);
    expect(broken((d) => { d.edges[1].weight = 2; })).toEqual(['edges[1].weight: unknown key "weight" is not allowed here']);
    expect(broken((d) => { d.limits.max_rounds = 3; })).toEqual(['limits.max_rounds: unknown key "max_rounds" is not allowed here']);
    expect(broken((d) => { d.skills.search_events.retries = 1; })).toEqual(['skills.search_events.retries: unknown key "retries" is not allowed here']);
  });

  it('keys that reach the prototype, anywhere in the file', () => {
    const text = serializeGraph(findTemplate('securityclaw')!.graph());
    const top = text.replace('"format"', '"__proto__": { "polluted": true },\n  "format"');
    expect(problemsOf(top)).toEqual([{ path: '__proto__', message: 'the key "__proto__" is not allowed anywhere in a file' }]);

    const nested = text.replace('"minRecords": 2', '"minRecords": 2, "__proto__": { "minRecords": 0 }');
    expect(problemsOf(nested).map((problem) => problem.path)).toEqual(['nodes[2].config.__proto__']);

    const constructorKey = text.replace('"q": "login_failed src=10.0.0.5"', '"constructor": { "prototype": {} }');
    expect(problemsOf(constructorKey).map((problem) => problem.path)).toEqual(['nodes[0].config.plans[0].actions[0].args.constructor']);

    const inState = JSON.parse(text);
    inState.state = JSON.parse('{"prototype": 1}');
    expect(problemsOf(inState)[0].path).toBe('state.prototype');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('wrong types, with what was expected and what was given', () => {
    expect(broken((d) => { d.nodes[1].config.retry.maxAttempts = '3'; })).toEqual(['nodes[1].config.retry.maxAttempts: expected a number, got a string']);
    const maxAttempts = securityclaw();
    maxAttempts.nodes.splice(0, 0, maxAttempts.nodes.splice(1, 1)[0]);
    maxAttempts.nodes.splice(3, 0, maxAttempts.nodes.splice(0, 1)[0]);
    maxAttempts.nodes[3].config.retry.maxAttempts = 'three';
    expect(describeProblems(problemsOf(maxAttempts))).toBe('nodes[3].config.retry.maxAttempts: expected a number, got a string');
    expect(broken((d) => { d.name = 7; })).toEqual(['name: expected text (a string), got a number']);
    expect(broken((d) => { d.nodes = {}; })).toEqual(['nodes: expected an array, got an object']);
    expect(broken((d) => { d.limits.maxRounds = 2.5; })).toEqual(['limits.maxRounds: expected a whole number, got a number']);
    expect(broken((d) => { d.limits.maxSteps = 0; })).toEqual(['limits.maxSteps: must be at least 1']);
    expect(broken((d) => { d.permissions.mode = 'root'; })).toEqual(['permissions.mode: expected "read-only" or "workspace" or "full"']);
    expect(broken((d) => { delete d.nodes; })).toEqual(['nodes: required: expected an array']);
    expect(broken((d) => { d.nodes[0].position = { x: 'left', y: 0 }; })).toEqual(['nodes[0].position.x: expected a number, got a string']);
  });

  it('bad ids', () => {
    expect(broken((d) => { d.nodes[0].id = '1st node'; })).toEqual(['nodes[0].id: an id is letters, digits, _ or -, starting with a letter or _']);
    expect(broken((d) => { d.skills['bad name'] = d.skills.search_events; }).map((line) => line.split(':')[0])).toEqual(['skills["bad name"]']);
  });

  it('a bad `when`, down to the inner condition', () => {
    expect(broken((d) => { d.edges[2].when = 'sometimes'; })).toEqual([
      'edges[2].when: expected "always", "otherwise", {"outcome": …}, {"path": …, "op": …, "value": …}, {"all": […]}, {"any": […]} or {"not": …}',
    ]);
    expect(broken((d) => { d.edges[2].when = { outcome: 3 }; })).toEqual(['edges[2].when.outcome: expected text (a string), got a number']);
    expect(broken((d) => { d.edges[3].when.op = 'like'; })).toEqual([
      'edges[3].when.op: expected "eq" or "ne" or "gt" or "gte" or "lt" or "lte" or "in" or "contains" or "exists" or "empty"',
    ]);
    expect(broken((d) => { d.edges[3].when.path = 'evaluation..plan'; })).toEqual([
      'edges[3].when.path: a path is field names joined by dots, like evaluation.plan_exhausted',
    ]);
    expect(broken((d) => { d.edges[2].when = { all: [{ outcome: 'sufficient' }, { outcome: 'ok', extra: 1 }] }; })).toEqual([
      'edges[2].when.all[1].extra: unknown key "extra" is not allowed here',
    ]);
    expect(broken((d) => { d.edges[2].when = { any: [] }; })).toEqual(['edges[2].when.any: needs at least 1 item']);
    expect(broken((d) => { d.edges[2].when = { not: { nope: true } }; })[0]).toMatch(/^edges\[2\]\.when\.not: expected "always"/);
  });

  it('an unknown or missing kind, listing the kinds', () => {
    expect(broken((d) => { d.nodes[0].kind = 'think'; })).toEqual([
      'nodes[0].kind: unknown kind "think" (expected one of reason, collect, act, verify, recover, approve, respond, stop)',
    ]);
    expect(broken((d) => { delete d.nodes[0].kind; })).toEqual(['nodes[0].kind: required: the kind is missing']);
  });

  it('bad skills', () => {
    expect(broken((d) => { d.skills.search_events.type = 'ftp'; })).toEqual(['skills.search_events.type: unknown type "ftp"']);
    expect(broken((d) => { d.skills.search_events.script = []; })).toEqual(['skills.search_events.script: needs at least 1 item']);
    expect(broken((d) => { d.skills.search_events.script[0].outcome = 'lost'; })[0]).toMatch(/^skills\.search_events\.script\[0\]\.outcome: expected "ok" or "empty" or "timeout"/);
    expect(broken((d) => { d.skills.search_events.access = 'admin'; })).toEqual(['skills.search_events.access: expected "read" or "write" or "exec"']);
  });

  it('reports every problem of a file, not only the first', () => {
    const lines = broken((d) => {
      d.name = '';
      d.nodes[1].config.retry.maxAttempts = 0;
      d.edges[0].extra = 1;
    });
    expect(lines).toEqual([
      'name: must not be empty',
      'nodes[1].config.retry.maxAttempts: must be at least 1',
      'edges[0].extra: unknown key "extra" is not allowed here',
    ]);
  });
});

describe('helpers', () => {
  it('formatPath joins keys and indices the way a person reads them', () => {
    expect(formatPath([])).toBe('');
    expect(formatPath(['nodes', 3, 'config', 'retry', 'maxAttempts'])).toBe('nodes[3].config.retry.maxAttempts');
    expect(formatPath(['skills', 'my-skill', 'url'])).toBe('skills["my-skill"].url');
  });

  it('describeProblems puts one problem on a line, path first', () => {
    expect(describeProblems([{ path: 'a.b', message: 'bad' }, { path: '', message: 'whole file' }])).toBe('a.b: bad\nwhole file');
  });

  it('parseWith reports under a base path', () => {
    const result = parseWith(RetryPolicy, { maxAttempts: 'x' }, ['nodes', 1, 'config', 'retry']);
    expect(result).toEqual({ ok: false, problems: [{ path: 'nodes[1].config.retry.maxAttempts', message: 'expected a number, got a string' }] });
    expect(parseWith(RetryPolicy, {})).toEqual({ ok: true, value: { maxAttempts: 3, retryOn: ['timeout', 'parse_error'] } });
  });

  it('serializeGraph writes two-space JSON with a final newline', () => {
    const graph = findTemplate('blank')!.graph();
    expect(serializeGraph(graph)).toBe(`${JSON.stringify(graph, null, 2)}\n`);
    expect(serializeGraph(graph).split('\n')[1]).toBe('  "format": "loopscope/graph",');
  });
});

describe('the SPEC §1 example file', () => {
  it('parses, keeps its values, and only warns that recover can end with needs_human unrouted', () => {
    const result = parseGraph(specExample);
    if (!result.ok) throw new Error(describeProblems(result.problems));
    expect(result.value.limits).toEqual({ maxRounds: 5, maxSteps: 50, tokenBudget: 5000 });
    expect(result.value.skills.search_logs).toMatchObject({ type: 'mock', access: 'read', tokens: 100 });
    expect(result.value.edges.map((edge) => edge.when ?? 'always')).toEqual([
      'always', 'always', { outcome: 'sufficient' }, { path: 'evaluation.plan_exhausted', op: 'eq', value: true },
      'otherwise', { outcome: 'recovered' }, { outcome: 'no_path' },
    ]);
    const problems = validateGraph(result.value);
    expect(problems.map((problem) => [problem.code, problem.severity, problem.nodeId])).toEqual([['unrouted_outcome', 'warning', 'recover']]);
    expect(problems[0].message).toContain('"needs_human"');
  });
});

describe('serializeGraph', () => {
  const whole = (graph: unknown) => `${JSON.stringify(graph, null, 2)}\n`;

  it('writes the very text of JSON.stringify with a two-space indent, for any graph a file may hold', () => {
    fc.assert(
      fc.property(graphFileArbitrary, (file) => {
        const parsed = parseGraph(file);
        if (!parsed.ok) return;
        expect(serializeGraph(parsed.value)).toBe(whole(parsed.value));
      }),
    );
  });

  it('writes the same text after edits as a whole write would, its unchanged nodes and edges kept from the last write', () => {
    const graph = findTemplate('securityclaw')!.graph();
    expect(serializeGraph(graph)).toBe(whole(graph));
    const [first, second] = graph.nodes;
    const moved = moveNodes(graph, new Map([[first.id, { x: -7, y: 1e21 }]]));
    expect(serializeGraph(moved)).toBe(whole(moved));
    const renamed = updateNode(moved, second.id, (node) => ({ ...node, label: 'Say "hi"\n\ttwice' }));
    expect(serializeGraph(renamed)).toBe(whole(renamed));
    // Written ahead a slice at a time: done once every node and edge has its text, the same text.
    const another = findTemplate('graph-engineer')!.graph();
    const slices = Math.ceil((another.nodes.length + another.edges.length) / 4);
    for (let slice = 1; slice < slices; slice += 1) expect(prepareSerialization(another, 4)).toBe(false);
    expect(prepareSerialization(another, 4)).toBe(true);
    expect(serializeGraph(another)).toBe(whole(another));
    const bare = { ...renamed, nodes: [], edges: [], finally: undefined };
    expect(serializeGraph(bare)).toBe(whole(bare));
  });

  it('writes the same text a slice at a time, yielding between slices and before joining them, as in one go', () => {
    const graph = findTemplate('graph-engineer')!.graph();
    for (const slice of [1, 3, graph.nodes.length, 1000]) {
      const steps = serializeInSlices(graph, slice);
      let yields = 0;
      let step = steps.next();
      for (; !step.done; step = steps.next()) yields += 1;
      expect(step.value).toBe(whole(graph));
      expect(yields).toBe(Math.ceil(graph.nodes.length / slice) - 1 + Math.ceil(graph.edges.length / slice) - 1 + 1);
    }
  });
});
