/**
 * Issue 54, items 7–9: the loop options that say the rest of seed 003, each on the article's own
 * scenario, each default keeping what ran before.
 */
import { describe, expect, it } from 'vitest';
import { noteWords } from './stepWords.ts';
import type { GraphFile, LoopConfig, MockEntry } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { validateGraph } from '../graph/validate.ts';
import { parseStateEdit } from '../graph/state.ts';
import { FIXTURES } from './fixtures/index.ts';
import { createController, runGraph } from './index.ts';
import { executedNodes, nodeOf, scriptedLlm, withoutTimings } from './testing.ts';

const tool = (name: string, args: Record<string, unknown> = {}): MockEntry => ({ outcome: 'ok', reply: { tool: name, args } });
const doneWith = (output: Record<string, unknown>): MockEntry => ({ outcome: 'ok', reply: { done: true, output } });
const TIMEOUT: MockEntry = { outcome: 'timeout' };

/** The inner-loop fixture (an Act loop with the SPEC's default retry: 3 attempts on timeout) with its deciders' and tools' scripts. */
const innerLoop = (scripts: Record<string, MockEntry[]>, loop: Partial<LoopConfig> = {}) => {
  const graph = FIXTURES.innerLoop();
  graph.skills.read_file = { type: 'mock', access: 'read', tokens: 2, script: [{ outcome: 'ok', records: [{ line: 'FAIL a.test.ts: expected 2' }] }] };
  const work = nodeOf(graph, 'work', 'act');
  work.config.loop = { ...(work.config.loop as LoopConfig), tools: ['grep', 'read_file', 'write_file'], ...loop };
  for (const [skill, script] of Object.entries(scripts)) Object.assign(graph.skills[skill], { script });
  return graph;
};

describe('loop.onToolFailure (item 7): a tool call that still fails after its local retries', () => {
  const scripts = { think: [tool('grep', { q: 'FAIL' }), tool('read_file', { path: 'a.test.ts' }), doneWith({})], grep: [TIMEOUT, TIMEOUT, TIMEOUT] };

  it('ends the loop with error by default, as before', async () => {
    const work = (await runGraph(innerLoop(scripts))).steps[0];
    expect(work.outcome).toBe('error');
    expect(work.iterations).toHaveLength(1);
    expect(noteWords(work.note!)).toBe('iteration 1: grep failed with timeout');
  });

  it('observe: timeout ×3, then the decider sees the failure and calls another tool; the step says so', async () => {
    const trace = await runGraph(innerLoop(scripts, { onToolFailure: 'observe' }));
    const work = trace.steps[0];
    expect(executedNodes(trace)).toEqual(['work', 'check', 'answer']);
    expect(work.outcome).toBe('ok');
    expect(work.iterations?.map((iteration) => [iteration.tool ?? null, iteration.outcome, iteration.attempts.length])).toEqual([['grep', 'timeout', 4], ['read_file', 'ok', 2], [null, 'done', 1]]);
    expect(noteWords(work.iterations![0].note!)).toBe('grep failed with timeout after 3 attempt(s); the decider sees the failure and goes on (onToolFailure: observe)');
    expect(noteWords(work.note!)).toBe('done after 3 iteration(s): 2 tool call(s) returned 1 record(s); 1 failed tool call(s) (grep: timeout) observed by the decider, which went on');
    // The failed call stays in the results, with its outcome: Verify and a person see it.
    expect(work.writes.results).toMatchObject([{ skill: 'grep', outcome: 'timeout', records: [], attempts: 3 }, { skill: 'read_file', outcome: 'ok' }]);
    expect(work.writes.execution_error).toBeNull();
  });

  it('observe: the failure, outcome and message, is in what an llm decider is told next', async () => {
    const graph = innerLoop({ grep: [{ outcome: 'error', error: 'grep: index locked' }] }, { onToolFailure: 'observe' });
    graph.skills.think = { type: 'llm', access: 'read', baseUrl: 'http://llm.test/v1', model: 'tiny', timeoutMs: 1000 };
    const { fetch, prompts } = scriptedLlm(['{"tool": "grep", "args": {"q": "FAIL"}}', '{"done": true, "output": {}}']);
    const work = (await runGraph(graph, { fetch })).steps[0];
    expect(work.outcome).toBe('empty');
    expect(prompts[1]).toContain('{"n":1,"tool":"grep","args":{"q":"FAIL"},"outcome":"error","error":"grep: index locked"}');
  });

  it('observe: a permission refusal still ends the loop at once, the check\'s (denied) or a tool\'s own', async () => {
    const work = (await runGraph(innerLoop({ think: [tool('write_file'), doneWith({})] }, { onToolFailure: 'observe' }))).steps[0];
    expect(work.outcome).toBe('denied');
    expect(work.iterations).toHaveLength(1);
    const refused = (await runGraph(innerLoop({ think: [tool('grep'), doneWith({})], grep: [{ outcome: 'permission_denied', error: '403' }] }, { onToolFailure: 'observe' }))).steps[0];
    expect(refused.outcome).toBe('error');
    expect(refused.iterations).toHaveLength(1);
  });
});

/** The fixture's check as a verify loop whose verdict comes from run_tests; the work loop routes back to it on any ending. */
const verifyLoop = (answers: MockEntry[], replies: MockEntry[], loop: Partial<LoopConfig>) => {
  const graph = FIXTURES.innerLoop();
  graph.skills.run_tests = { type: 'mock', access: 'read', script: answers };
  graph.skills.judge = { type: 'mock', access: 'read', script: replies };
  Object.assign(nodeOf(graph, 'check', 'verify').config, { loop: { decider: 'judge', tools: ['run_tests'], maxIter: 3, ...loop }, verdictFrom: 'tool' });
  // Any ending of the check that is not sufficient goes back to work (the article's VERIFY → REASON back edge).
  graph.skills.think = { type: 'mock', access: 'read', script: [doneWith({})] };
  return graph;
};
const checks = async (graph: GraphFile) => (await runGraph(graph)).steps.filter((step) => step.node === 'check');

describe('loop.verdict (item 8): verify\'s verdict as the channel verified', () => {
  // Visit 1: run_tests answers ok, then the decider never says done (max_iter, an error route); visit 2 answers done without a tool.
  const answers: MockEntry[] = [{ outcome: 'ok', records: [{ ok: true }] }];
  const replies = [tool('run_tests'), tool('run_tests'), tool('run_tests'), doneWith({ reasoning: 'checked last time' })];

  it('visit (the default): a later visit that answers done without a tool verified nothing', async () => {
    const [first, second] = await checks(verifyLoop(answers, replies, {}));
    expect(first.outcome).toBe('max_iter');
    expect(second.outcome).toBe('continue');
    expect(second.writes).not.toHaveProperty('verified');
  });

  it('state: verified in an earlier visit still holds when a later visit answers done without calling the tool', async () => {
    const [first, second] = await checks(verifyLoop(answers, replies, { verdict: 'state' }));
    expect(first).toMatchObject({ outcome: 'max_iter', writes: { verified: true } });
    expect(second.outcome).toBe('sufficient');
    expect(second.writes).not.toHaveProperty('verified');
    expect(second.reads).toContain('verified');
    expect(noteWords(second.note!)).toBe(`no tool answered in this visit: the verdict is verified = true, written at step ${first.step}, and it holds until a tool answers again (loop.verdict: state) (the verdict comes from the tool); the decider: checked last time`);
  });

  it('state: a tool that answers again replaces the kept verdict; with none ever, nothing was verified', async () => {
    const [first, second] = await checks(verifyLoop([...Array.from({ length: 3 }, () => ({ outcome: 'ok', records: [{ ok: true }] }) as MockEntry), { outcome: 'ok', records: [{ ok: false }] }], [tool('run_tests'), tool('run_tests'), tool('run_tests'), tool('run_tests'), doneWith({})], { verdict: 'state' }));
    expect(first.writes.verified).toBe(true);
    expect(second).toMatchObject({ outcome: 'continue', writes: { verified: false } });
    const [never] = await checks(verifyLoop(answers, [doneWith({})], { verdict: 'state' }));
    expect(never.outcome).toBe('continue');
    expect(noteWords(never.note!)).toMatch(/^no tool answered in this visit, and none has before: nothing was verified/);
  });

  it('observe: a failed tool call the decider read is the last answer, and it verifies nothing (seed 003: verified = {"error": …}.get("ok", False))', async () => {
    const failing: MockEntry[] = [{ outcome: 'ok', records: [{ ok: true }] }, { outcome: 'error', error: 'the checker crashed' }];
    for (const verdict of ['visit', 'state'] as const) {
      const [first] = await checks(verifyLoop(failing, [tool('run_tests'), tool('run_tests'), doneWith({})], { onToolFailure: 'observe', verdict }));
      expect(first.outcome).toBe('continue');
      expect(noteWords(first.note!)).toMatch(/^the tool run_tests answered last, failing with error: a failure has no ok, so nothing is verified/);
      if (verdict === 'state') expect(first.writes.verified).toBe(false);
    }
  });

  it('state: verified is a channel, checkpointed and forkable: a fork that sets it is verified without a tool', async () => {
    const graph = verifyLoop(answers, [doneWith({})], { verdict: 'state' });
    const original = createController(graph);
    await original.run();
    expect(original.trace.steps[1]).toMatchObject({ node: 'check', outcome: 'continue' });
    const fork = await original.fork(1, { state: { verified: true } });
    await fork.run();
    expect(fork.trace.steps[1]).toMatchObject({ node: 'check', outcome: 'sufficient' });
    expect(noteWords(fork.trace.steps[1].note!)).toMatch(/^no tool answered in this visit: the verdict is verified = true, which no step of this run wrote \(the initial state, or a fork's edit\)/);
    expect(withoutTimings(fork.trace.steps[0].writes)).toEqual(withoutTimings(original.trace.steps[0].writes));
    expect(parseStateEdit({ verified: 'yes' }, graph)).toMatchObject({ ok: false, problems: [{ path: 'verified' }] });
  });
});

describe('loop.output (item 9): a Reason output that is not a plan', () => {
  /** The inner-loop fixture with a Reason loop in front, whose done output goes to the work loop on ok. */
  const reasonFirst = (replies: MockEntry[], loop: Partial<LoopConfig>) => {
    const graph = FIXTURES.innerLoop();
    graph.skills.planner = { type: 'mock', access: 'read', tokens: 4, script: replies };
    graph.nodes.unshift({ id: 'hypothesize', kind: 'reason', position: { x: 0, y: 0 }, config: { planner: 'scripted', plans: [], retry: { maxAttempts: 2, retryOn: ['timeout', 'parse_error'] }, loop: { decider: 'planner', tools: ['grep'], maxIter: 3, ...loop } } });
    graph.edges.unshift({ id: 'h1', source: 'hypothesize', target: 'work', when: { outcome: 'ok' } }, { id: 'h2', source: 'hypothesize', target: 'halt', when: 'otherwise' });
    graph.entry = 'hypothesize';
    return graph;
  };
  const HYPOTHESIS = { hypothesis: 'a.test.ts fails because the fixture date is in the past' };

  it('plan (the default): a free-form hypothesis is retried as a parse error, and no plan comes of it', async () => {
    const step = (await runGraph(reasonFirst([tool('grep'), doneWith(HYPOTHESIS)], {}))).steps[0];
    expect(step.outcome).toBe('error');
    expect(step.iterations?.[1].attempts.map((attempt) => attempt.outcome)).toEqual(['parse_error', 'parse_error']);
  });

  it('any: the hypothesis is written to reasoning and routes ok; the Act decider is given it', async () => {
    const trace = await runGraph(reasonFirst([tool('grep'), doneWith(HYPOTHESIS)], { output: 'any' }));
    const [step, work] = trace.steps;
    expect(step).toMatchObject({ outcome: 'ok', writes: { reasoning: HYPOTHESIS }, fired: { id: 'h1' } });
    expect(step.writes).not.toHaveProperty('plan');
    expect(noteWords(step.note!)).toBe('the decider planner answered done with no plan after 2 iteration(s): its output is written to reasoning and routes ok (loop.output: any); the plan stays as it was');
    expect(work.given?.state).toEqual({ reasoning: HYPOTHESIS });
    expect(trace.finalState.reasoning).toEqual(HYPOTHESIS);
  });

  it('any: an output that says actions is still a plan, and a malformed one is still retried', async () => {
    const plan = { actions: [{ skill: 'grep', args: { q: 'FAIL' } }] };
    const step = (await runGraph(reasonFirst([doneWith({ actions: 'grep everything' }), doneWith(plan)], { output: 'any' }))).steps[0];
    expect(step.iterations?.[0].attempts.map((attempt) => attempt.outcome)).toEqual(['parse_error', 'ok']);
    expect(step).toMatchObject({ outcome: 'ok', writes: { plan: { actions: plan.actions } } });
    expect(step.writes).not.toHaveProperty('reasoning');
  });
});

describe('validation of the loop options', () => {
  const codes = (graph: GraphFile) => validateGraph(graph).filter((problem) => problem.code === 'loop_option' || problem.code === 'no_verdict_tool').map((problem) => [problem.code, problem.path]);

  it('an option on a kind that does not read it, a kept verdict with verdictFrom decider or with no tool, are warned about with their path', () => {
    const graph = FIXTURES.innerLoop();
    Object.assign(nodeOf(graph, 'work', 'act').config.loop as LoopConfig, { verdict: 'state', output: 'any', onToolFailure: 'observe' });
    nodeOf(graph, 'check', 'verify').config.loop = { decider: 'judge', tools: [], maxIter: 3, verdict: 'state' };
    nodeOf(graph, 'check', 'verify').config.verdictFrom = 'decider';
    expect(codes(graph)).toEqual([
      ['loop_option', 'nodes[1].config.verdictFrom'],
      ['no_verdict_tool', 'nodes[1].config.loop.tools'],
      ['loop_option', 'nodes[0].config.loop.verdict'],
      ['loop_option', 'nodes[0].config.loop.output'],
    ]);
  });

  it('the schema names a value that is not an option', async () => {
    const { parseGraph } = await import('../graph/parse.ts');
    const graph = JSON.parse(JSON.stringify(FIXTURES.innerLoop()));
    graph.nodes[0].config.loop.onToolFailure = 'retry';
    const parsed = parseGraph(JSON.stringify(graph));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems[0].path).toBe('nodes[0].config.loop.onToolFailure');
  });

  it('the Graph Engineer template uses all three, with no warning, and a scenario for each', () => {
    const graph = (findTemplate('graph-engineer') as { graph: () => GraphFile }).graph();
    // Only the warning it always had: apply_patch is denied in read-only mode unless a person approves it.
    expect(validateGraph(graph).map((problem) => problem.code)).toEqual(['permission_conflict']);
    expect(nodeOf(graph, 'run', 'act').config.loop?.onToolFailure).toBe('observe');
    expect(nodeOf(graph, 'check', 'verify').config.loop?.verdict).toBe('state');
    expect(nodeOf(graph, 'think', 'reason').config.loop?.output).toBe('any');
  });
});
