import { describe, expect, it } from 'vitest';
import type { GraphFile, GraphNode } from './schema.ts';
import type { When } from './when.ts';
import { findTemplate } from './templates/index.ts';
import { PROBLEM_CODES, accessAllowed, hasErrors, validateGraph, type Problem, type ProblemCode } from './validate.ts';

const securityclaw = (): GraphFile => findTemplate('securityclaw')!.graph();

const mutated = (mutate: (graph: GraphFile) => void): GraphFile => {
  const graph = securityclaw();
  mutate(graph);
  return graph;
};

const withCode = (graph: GraphFile, code: ProblemCode): Problem[] => validateGraph(graph).filter((problem) => problem.code === code);

const node = (graph: GraphFile, id: string) => {
  const found = graph.nodes.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no node ${id}`);
  return found;
};

const nodeOf = <K extends GraphNode['kind']>(graph: GraphFile, id: string, kind: K) => {
  const found = node(graph, id);
  if (found.kind !== kind) throw new Error(`${id} is no ${kind} node`);
  return found as Extract<GraphNode, { kind: K }>;
};

describe('validateGraph', () => {
  it('knows exactly the SPEC codes', () => {
    expect([...PROBLEM_CODES]).toEqual([
      'on_budget',
      'no_entry', 'duplicate_id', 'unknown_node', 'unknown_skill', 'unreachable', 'dead_end',
      'unrouted_outcome', 'unknown_path', 'permission_conflict', 'bad_finally', 'capped_work', 'unknown_edge',
      'collect_writes', 'retry_denied', 'reserved_state', 'no_verdict_tool', 'unwritten_read', 'no_plan',
      'loop_option', 'unreachable_rule', 'bad_operand',
    ]);
  });

  it('finds nothing wrong with SecurityClaw, the base of every case below', () => {
    expect(validateGraph(securityclaw())).toEqual([]);
  });

  describe('no_entry', () => {
    it('an empty entry', () => {
      expect(withCode(mutated((g) => { g.entry = ''; }), 'no_entry')).toMatchObject([{ severity: 'error', path: 'entry' }]);
    });
    it('an entry that names no node', () => {
      const [problem] = withCode(mutated((g) => { g.entry = 'start'; }), 'no_entry');
      expect(problem).toMatchObject({ severity: 'error', path: 'entry' });
      expect(problem.message).toContain('"start"');
    });
    it('not when the entry is a node, even another one', () => {
      expect(withCode(mutated((g) => { g.entry = 'execute'; }), 'no_entry')).toEqual([]);
    });
  });

  describe('duplicate_id', () => {
    it('two nodes with one id, pointing at the second', () => {
      const graph = mutated((g) => { g.nodes.push({ ...node(g, 'answer'), label: 'again' }); });
      expect(withCode(graph, 'duplicate_id')).toMatchObject([{ severity: 'error', nodeId: 'answer', path: 'nodes[8].id' }]);
    });
    it('two edges with one id', () => {
      const graph = mutated((g) => { g.edges[6] = { ...g.edges[6], id: 'e1' }; });
      expect(withCode(graph, 'duplicate_id')).toMatchObject([{ severity: 'error', edgeId: 'e1', path: 'edges[6].id' }]);
    });
    it('not when a node and an edge share a name', () => {
      expect(withCode(mutated((g) => { g.edges[0].id = 'decide'; }), 'duplicate_id')).toEqual([]);
    });
  });

  describe('scenarios naming what the graph does not have', () => {
    it('warns of a node or an edge a scenario expects something of', () => {
      const graph = mutated((g) => {
        g.scenarios = [{ name: 's', expect: { path: ['decide', 'gone'], pathIncludes: ['lost'], attempts: { execute: 1, missing: 2 }, visits: { nowhere: 0 }, fired: ['e1', 'e99'], notFired: ['e42'] } }];
      });
      expect(withCode(graph, 'unknown_node').map((problem) => [problem.severity, problem.path])).toEqual([
        ['warning', 'scenarios[0].expect.path[1]'], ['warning', 'scenarios[0].expect.pathIncludes[0]'], ['warning', 'scenarios[0].expect.attempts.missing'], ['warning', 'scenarios[0].expect.visits.nowhere'],
      ]);
      expect(withCode(graph, 'unknown_edge').map((problem) => problem.message)).toEqual([
        'Scenario "s" expects the edge "e99" to fire, but the graph has no such edge.',
        'Scenario "s" expects the edge "e42" never to fire, but the graph has no such edge.',
      ]);
    });

    it('warns of answers for a node that is not an approve node', () => {
      const graph = mutated((g) => {
        g.scenarios = [{ name: 's', decisions: { decide: ['approved'], gone: ['denied'] }, expect: {} }];
      });
      expect(withCode(graph, 'unknown_node').map((problem) => [problem.path, problem.message])).toEqual([
        ['scenarios[0].decisions.decide', 'Scenario "s" answers for "decide", which is a reason node, not an approve node: the answers are never used.'],
        ['scenarios[0].decisions.gone', 'Scenario "s" answers for "gone", which is not a node of the graph: the answers are never used.'],
      ]);
    });
  });

  describe('unknown_node', () => {
    it('an edge from or to a node that does not exist, naming the end', () => {
      const graph = mutated((g) => { g.edges[1].target = 'judge'; g.edges[0].source = 'plan'; });
      expect(withCode(graph, 'unknown_node').map((problem) => problem.path)).toEqual(['edges[0].source', 'edges[1].target']);
    });
    it('not once the node exists', () => {
      const graph = mutated((g) => { g.edges[1].target = 'answer'; });
      expect(withCode(graph, 'unknown_node')).toEqual([]);
    });
  });

  describe('unknown_skill', () => {
    it('a plan action, a recovery rule and a collect skill that name undefined skills', () => {
      const graph = mutated((g) => {
        const decide = node(g, 'decide');
        if (decide.kind === 'reason') decide.config.plans[0].actions[0].skill = 'search_siem';
        const recover = node(g, 'recover');
        if (recover.kind === 'recover') recover.config.rules[1].skill = 'ask_oracle';
        g.nodes.push({ id: 'gather', kind: 'collect', position: { x: 0, y: 0 }, config: { skills: ['read_wiki'], args: {}, retry: { maxAttempts: 3, retryOn: ['timeout'] }, maxIter: 5 } });
      });
      expect(withCode(graph, 'unknown_skill').map((problem) => [problem.nodeId, problem.path])).toEqual([
        ['decide', 'nodes[0].config.plans[0].actions[0].skill'],
        ['recover', 'nodes[3].config.rules[1].skill'],
        ['gather', 'nodes[8].config.skills[0]'],
      ]);
    });
    it('an act node’s own skill and a scenario override', () => {
      const graph = mutated((g) => {
        const execute = node(g, 'execute');
        if (execute.kind === 'act') execute.config.skill = 'nope';
        g.scenarios = [{ name: 's', skills: { ghost: { script: [] } }, expect: {} }];
      });
      expect(withCode(graph, 'unknown_skill').map((problem) => problem.path)).toEqual(['nodes[1].config.skill', 'scenarios[0].skills.ghost']);
    });
    it('not for skills the graph defines', () => {
      const graph = mutated((g) => {
        const execute = node(g, 'execute');
        if (execute.kind === 'act') execute.config.skill = 'fallback_lookup';
        g.scenarios = [{ name: 's', skills: { search_events: { script: [{ outcome: 'ok' }] } }, expect: {} }];
      });
      expect(withCode(graph, 'unknown_skill')).toEqual([]);
    });
  });

  it('a skill named like an Object method is not taken as defined, nor a condition path as a state field', () => {
    const graph = mutated((g) => {
      const decide = node(g, 'decide');
      if (decide.kind === 'reason') decide.config.plans[0].actions[0].skill = 'toString';
      g.edges[3].when = { path: 'hasOwnProperty', op: 'exists' };
    });
    expect(validateGraph(graph).map((problem) => `${problem.code} ${problem.path}`)).toEqual(['unknown_skill nodes[0].config.plans[0].actions[0].skill', 'unknown_path edges[3].when']);
  });

  describe('unreachable', () => {
    it('a node no path from the entry reaches, as a warning', () => {
      const graph = mutated((g) => { g.edges = g.edges.filter((edge) => edge.id !== 'e7' && edge.id !== 'e10'); g.edges.push({ id: 'e7', source: 'recover', target: 'decide', when: 'otherwise' }); });
      expect(withCode(graph, 'unreachable')).toMatchObject([{ severity: 'warning', nodeId: 'halt' }]);
    });
    it('everything downstream of a cut edge', () => {
      const graph = mutated((g) => { g.edges = g.edges.filter((edge) => edge.id !== 'e2'); });
      // final is the finally node: it runs after a stop whether or not an edge leads to it.
      expect(withCode(graph, 'unreachable').map((problem) => problem.nodeId)).toEqual(['evaluate', 'recover', 'answer', 'halt', 'confirm']);
    });
    it('not for a node reached only through a loop back', () => {
      const graph = mutated((g) => { g.entry = 'execute'; });
      expect(withCode(graph, 'unreachable')).toEqual([]);
    });
  });

  describe('dead_end', () => {
    it('a non-terminal node with no edge out', () => {
      const graph = mutated((g) => { g.edges = g.edges.filter((edge) => edge.source !== 'recover'); });
      expect(withCode(graph, 'dead_end')).toMatchObject([{ severity: 'error', nodeId: 'recover' }]);
    });
    it('not for Respond and Stop, which end the run', () => {
      const graph = mutated((g) => { g.edges.push({ id: 'e8', source: 'decide', target: 'answer', when: { outcome: 'error' } }); });
      expect(withCode(graph, 'dead_end')).toEqual([]);
      expect(withCode(securityclaw(), 'dead_end')).toEqual([]);
    });
  });

  describe('unrouted_outcome', () => {
    it('an outcome with no edge and no otherwise: the empty result treated as success', () => {
      const graph = mutated((g) => {
        g.edges = g.edges.filter((edge) => edge.source !== 'execute');
        g.edges.push({ id: 'ok', source: 'execute', target: 'evaluate', when: { outcome: 'ok' } });
      });
      const problems = withCode(graph, 'unrouted_outcome');
      expect(problems.map((problem) => problem.message.match(/"(\w+)"/)?.[1])).toEqual(['empty', 'error', 'denied']);
      expect(problems.every((problem) => problem.nodeId === 'execute' && problem.severity === 'warning')).toBe(true);
      expect(problems[0].message).toContain('An empty result would stop the run instead of entering recovery.');
    });
    it('says when field conditions might cover an outcome', () => {
      const graph = mutated((g) => { g.edges = g.edges.filter((edge) => edge.id !== 'e5' && edge.id !== 'e11'); });
      const problems = withCode(graph, 'unrouted_outcome');
      expect(problems.map((problem) => problem.message.match(/"(\w+)"/)?.[1])).toEqual(['exhausted', 'continue']);
      expect(problems[0].message).toContain('its field conditions may not cover it');
    });
    it('not when every outcome has an edge, or an otherwise or unconditional edge catches the rest', () => {
      const routed = mutated((g) => {
        g.edges = g.edges.filter((edge) => edge.source !== 'recover');
        g.edges.push(
          { id: 'r1', source: 'recover', target: 'decide', when: { outcome: 'recovered' } },
          { id: 'r2', source: 'recover', target: 'halt', when: { outcome: 'needs_human' } },
          { id: 'r3', source: 'recover', target: 'halt', when: { outcome: 'no_path' } },
        );
      });
      expect(withCode(routed, 'unrouted_outcome')).toEqual([]);
      const anyOf = mutated((g) => {
        g.edges = g.edges.filter((edge) => edge.source !== 'recover');
        g.edges.push(
          { id: 'r1', source: 'recover', target: 'decide', when: { outcome: 'recovered' } },
          { id: 'r2', source: 'recover', target: 'halt', when: { any: [{ outcome: 'needs_human' }, { outcome: 'no_path' }] } },
        );
      });
      expect(withCode(anyOf, 'unrouted_outcome')).toEqual([]);
      const allOf = mutated((g) => {
        g.edges = g.edges.filter((edge) => edge.id !== 'e7');
        g.edges.push({ id: 'r2', source: 'recover', target: 'halt', when: { all: [{ outcome: 'no_path' }, { path: 'round', op: 'gt', value: 2 }] } });
      });
      expect(withCode(allOf, 'unrouted_outcome').map((problem) => problem.message.match(/"(\w+)"/)?.[1])).toEqual(['no_path']);
      expect(withCode(securityclaw(), 'unrouted_outcome')).toEqual([]);
    });
  });

  describe('unknown_path', () => {
    it('a condition reading a field no node writes', () => {
      const graph = mutated((g) => { g.edges[3].when = { path: 'evaluation.is_done', op: 'eq', value: true }; });
      expect(withCode(graph, 'unknown_path')).toMatchObject([{ severity: 'error', edgeId: 'e4', path: 'edges[3].when' }]);
    });
    it('a field group of a kind the graph does not have, inside all/any/not', () => {
      const graph = mutated((g) => {
        g.edges[3].when = { all: [{ path: 'evaluation.plan_exhausted', op: 'eq', value: true }, { not: { path: 'collected', op: 'empty' } }] };
      });
      const [problem] = withCode(graph, 'unknown_path');
      expect(problem.message).toContain('"collected"');
    });
    it('not for runtime fields, initial state, node-written fields, or inside free-form groups', () => {
      const graph = mutated((g) => {
        g.edges[3].when = {
          any: [
            { path: 'round', op: 'gte', value: 3 }, { path: 'tokensUsed', op: 'gt', value: 100 },
            { path: 'question', op: 'exists' }, { path: 'results', op: 'empty' }, { path: 'results.0.records', op: 'exists' },
            { path: 'recovery.skill', op: 'eq', value: 'fallback_lookup' }, { path: 'evaluation.plan_exhausted', op: 'eq', value: true },
          ],
        };
      });
      expect(withCode(graph, 'unknown_path')).toEqual([]);
    });
  });

  describe('permission_conflict', () => {
    /** SecurityClaw without its human confirmation (the Approve node, its edges and the rule leading there). */
    const unconfirmed = (mutate: (graph: GraphFile) => void) => mutated((g) => {
      g.nodes = g.nodes.filter((candidate) => candidate.id !== 'confirm');
      g.edges = g.edges.filter((edge) => edge.source !== 'confirm' && edge.target !== 'confirm');
      const recover = nodeOf(g, 'recover', 'recover');
      recover.config.rules = recover.config.rules.filter((rule) => rule.action !== 'request_human_confirmation');
      mutate(g);
    });
    it('SecurityClaw\'s confirmation path softens a refused search: its Approve node is reachable from decide', () => {
      const graph = mutated((g) => { g.skills.search_events = { ...g.skills.search_events, access: 'write' }; });
      expect(withCode(graph, 'permission_conflict').map((problem) => [problem.nodeId, problem.severity])).toEqual([['decide', 'warning']]);
    });
    it('a write skill in a read-only graph is an error when no one can approve it', () => {
      const graph = unconfirmed((g) => { g.skills.query_alternative_source = { ...g.skills.query_alternative_source, access: 'write' }; });
      const [problem] = withCode(graph, 'permission_conflict');
      expect(problem).toMatchObject({ severity: 'error', nodeId: 'recover' });
      expect(problem.message).toContain('needs write access, but the graph runs read-only');
    });
    it('only a warning when an Approve node reachable from the refused node can grant it; Collect is collect_writes instead', () => {
      const graph = unconfirmed((g) => {
        g.skills.search_events = { ...g.skills.search_events, access: 'exec' };
        g.nodes.push({ id: 'ask', kind: 'approve', position: { x: 0, y: 0 }, config: {} });
        g.edges.push({ id: 'a1', source: 'recover', target: 'ask', when: { outcome: 'needs_human' } }, { id: 'a2', source: 'ask', target: 'decide' });
        g.nodes.push({ id: 'gather', kind: 'collect', position: { x: 0, y: 0 }, config: { skills: ['search_events'], args: {}, retry: { maxAttempts: 3, retryOn: ['timeout'] }, maxIter: 5 } });
      });
      expect(withCode(graph, 'permission_conflict').map((problem) => [problem.nodeId, problem.severity])).toEqual([['decide', 'warning']]);
      expect(withCode(graph, 'collect_writes').map((problem) => [problem.nodeId, problem.severity])).toEqual([['gather', 'error']]);
    });
    it('an Approve node the run cannot reach from the refused node does not soften it', () => {
      const graph = unconfirmed((g) => {
        g.skills.search_events = { ...g.skills.search_events, access: 'write' };
        // It leads into the loop, but nothing leads to it.
        g.nodes.push({ id: 'ask', kind: 'approve', position: { x: 0, y: 0 }, config: {} });
        g.edges.push({ id: 'a1', source: 'ask', target: 'decide' });
      });
      const [problem] = withCode(graph, 'permission_conflict');
      expect(problem).toMatchObject({ severity: 'error', nodeId: 'decide' });
      expect(problem.message).toContain('No Approve node can be reached from decide');
    });
    it('a recovery rule asking for human confirmation softens nothing without an Approve node', () => {
      const graph = unconfirmed((g) => {
        g.skills.search_events = { ...g.skills.search_events, access: 'write' };
        nodeOf(g, 'recover', 'recover').config.rules.push({ reason: 'permission_denied', action: 'request_human_confirmation' });
      });
      expect(withCode(graph, 'permission_conflict').map((problem) => [problem.nodeId, problem.severity])).toEqual([['decide', 'error']]);
    });
    it('approval grants what an Act node was refused: a judge\'s skill stays an error even with an Approve node in reach', () => {
      const graph = unconfirmed((g) => {
        g.skills.judge = { type: 'mock', access: 'write', script: [{ outcome: 'ok' }] };
        nodeOf(g, 'evaluate', 'verify').config.judge = 'judge';
        g.nodes.push({ id: 'ask', kind: 'approve', position: { x: 0, y: 0 }, config: {} });
        g.edges.push({ id: 'a1', source: 'recover', target: 'ask', when: { outcome: 'needs_human' } }, { id: 'a2', source: 'ask', target: 'decide' });
      });
      const [problem] = withCode(graph, 'permission_conflict');
      expect(problem).toMatchObject({ severity: 'error', nodeId: 'evaluate' });
      expect(problem.message).toContain('Approval cannot grant it there');
    });
    it('an Act loop\'s decider that needs write is an error even with an Approve node in reach: approval grants its tools, never the decider (issue 54, #2)', () => {
      const graph = mutated((g) => {
        g.skills.decider = { type: 'mock', access: 'write', script: [{ outcome: 'ok', reply: { done: true, output: {} } }] };
        nodeOf(g, 'execute', 'act').config.loop = { decider: 'decider', tools: ['search_events'], maxIter: 3 };
      });
      const [problem] = withCode(graph, 'permission_conflict');
      expect(problem).toMatchObject({ severity: 'error', nodeId: 'execute' });
      expect(problem.message).toContain('never a decider, which is asked every iteration');
    });
    it('not when the permission mode allows the access', () => {
      const graph = mutated((g) => {
        g.skills.search_events = { ...g.skills.search_events, access: 'write' };
        g.permissions.mode = 'workspace';
      });
      expect(withCode(graph, 'permission_conflict')).toEqual([]);
    });
  });

  describe('unreachable_rule (issue 54, #6)', () => {
    it('SecurityClaw as it shipped: low coverage went back to decide, so coverage_low → broaden_evidence could never apply', () => {
      const shipped = mutated((g) => {
        g.edges = g.edges.filter((edge) => edge.id !== 'e11');
      });
      const [problem] = withCode(shipped, 'unreachable_rule');
      expect(problem).toMatchObject({ severity: 'warning', nodeId: 'recover', path: 'nodes[3].config.rules[3].reason' });
      expect(problem.message).toBe('recover\'s rule for "coverage_low" (broaden_evidence) can never apply: evaluate ends it with the outcome continue (plan_exhausted false) and goes to decide, so no path brings a "coverage_low" evaluation to recover. Route it there, or remove the rule.');
      expect(withCode(shipped, 'unreachable_rule')).toHaveLength(1);
      // As it shipped, Evaluate also needed one record only: low coverage (some records, fewer than needed) could not even happen.
      nodeOf(shipped, 'evaluate', 'verify').config.minRecords = 1;
      expect(withCode(shipped, 'unreachable_rule').map((problem) => problem.message)).toEqual(['recover\'s rule for "coverage_low" (broaden_evidence) can never apply: evaluate never ends with it (it needs 1 record(s); "coverage_low" means some records but fewer than needed, which takes minRecords 2 or more), so no path brings a "coverage_low" evaluation to recover. Route it there, or remove the rule.']);
    });
    it('an edge that reads more than the evaluation (recovery.tried contains …) may go either way: the rule stays reachable', () => {
      const gated = mutated((g) => {
        g.edges.find((edge) => edge.id === 'e11')!.when = { all: [{ outcome: 'continue' }, { not: { path: 'recovery.tried', op: 'contains', value: 'broaden_evidence' } }] };
      });
      expect(withCode(gated, 'unreachable_rule')).toEqual([]);
      // What the outcome alone decides is read: low coverage never ends exhausted, so an edge on exhausted does not bring it.
      const exhaustedOnly = mutated((g) => {
        g.edges.find((edge) => edge.id === 'e11')!.when = { all: [{ outcome: 'exhausted' }, { not: { path: 'recovery.tried', op: 'contains', value: 'broaden_evidence' } }] };
      });
      expect(withCode(exhaustedOnly, 'unreachable_rule').map((problem) => problem.path)).toEqual(['nodes[3].config.rules[3].reason']);
    });
    it('not once low coverage is routed to recover, nor for a reason a judge may write', () => {
      expect(withCode(securityclaw(), 'unreachable_rule')).toEqual([]);
      const judged = mutated((g) => {
        nodeOf(g, 'recover', 'recover').config.rules.push({ reason: 'too_few_hosts', action: 'broaden_evidence' });
        g.skills.judge = { type: 'mock', access: 'read', script: [{ outcome: 'ok' }] };
      });
      expect(withCode(judged, 'unreachable_rule').map((problem) => problem.message)).toEqual([expect.stringContaining('no Verify node ends with the reason "too_few_hosts"')]);
      nodeOf(judged, 'evaluate', 'verify').config.judge = 'judge';
      expect(withCode(judged, 'unreachable_rule')).toEqual([]);
    });
  });

  describe('bad_operand (issue 54, #11)', () => {
    const withWhen = (when: When) => mutated((g) => {
      g.edges.find((edge) => edge.id === 'e5')!.when = when;
    });
    it('contains asks whether a list holds a value: it needs the value, and a field that can be a list', () => {
      expect(withCode(withWhen({ path: 'recovery.tried', op: 'contains', value: 'expand_search_scope' }), 'bad_operand')).toEqual([]);
      expect(withCode(withWhen({ all: [{ outcome: 'continue' }, { path: 'recovery.tried', op: 'contains' }] }), 'bad_operand')).toEqual([{
        code: 'bad_operand', severity: 'error', edgeId: 'e5', path: 'edges[4].when.all[1]',
        message: 'Edge e5 asks whether the list at "recovery.tried" contains a value but names none: give "value", the item the list must hold (e.g. "expand_search_scope").',
      }]);
      expect(withCode(withWhen({ path: 'evaluation.reason', op: 'contains', value: 'empty' }), 'bad_operand').map((problem) => problem.message)).toEqual([
        'Edge e5 asks whether "evaluation.reason" contains "empty", but "evaluation.reason" is never a list (what writes it, or the initial state, holds no list there): contains would never match. Use eq, or in for one of several values.',
      ]);
      expect(withCode(withWhen({ path: 'round', op: 'contains', value: 1 }), 'bad_operand')).toHaveLength(1);
      expect(withCode(withWhen({ path: 'question', op: 'contains', value: 'x' }), 'bad_operand')).toHaveLength(1);
      // A list of the initial state, and a field of any JSON (a loose group's unknown field), may hold it.
      const tagged = withWhen({ path: 'tags', op: 'contains', value: 'x' });
      tagged.state.tags = ['x'];
      expect(withCode(tagged, 'bad_operand')).toEqual([]);
      expect(withCode(withWhen({ path: 'failures', op: 'contains', value: 'x' }), 'bad_operand')).toEqual([]);
    });
  });

  describe('collect_writes', () => {
    const withCollect = (access: 'read' | 'write' | 'exec', loop = false) => mutated((g) => {
      g.permissions.mode = 'full';
      g.skills.archive_write = { type: 'mock', access, script: [{ outcome: 'ok', records: [{}] }] };
      g.nodes.push({ id: 'gather', kind: 'collect', position: { x: 0, y: 0 }, config: {
        skills: loop ? [] : ['search_events', 'archive_write'], args: {}, retry: { maxAttempts: 3, retryOn: ['timeout'] }, maxIter: 5,
        ...(loop ? { loop: { decider: 'fallback_lookup', tools: ['search_events', 'archive_write'], maxIter: 3 } } : {}),
      } });
      g.edges.push({ id: 'c1', source: 'gather', target: 'decide' });
    });
    it('a write or exec skill in a collect node, in its list or its loop, whatever the mode, with the path', () => {
      expect(withCode(withCollect('write'), 'collect_writes')).toMatchObject([{ severity: 'error', nodeId: 'gather', path: 'nodes[8].config.skills[1]' }]);
      const [problem] = withCode(withCollect('exec', true), 'collect_writes');
      expect(problem).toMatchObject({ severity: 'error', path: 'nodes[8].config.loop.tools[1]' });
      expect(problem.message).toContain('only reads, but "archive_write" needs exec access');
    });
    it('not for read skills', () => {
      expect(withCode(withCollect('read'), 'collect_writes')).toEqual([]);
    });
  });

  describe('retry_denied', () => {
    it('permission_denied in retryOn is refused with the reason', () => {
      const [problem] = withCode(mutated((g) => { nodeOf(g, 'execute', 'act').config.retry.retryOn = ['timeout', 'permission_denied']; }), 'retry_denied');
      expect(problem).toMatchObject({ severity: 'error', nodeId: 'execute', path: 'nodes[1].config.retry.retryOn[1]' });
      expect(problem.message).toContain('a refusal is decided by the permission mode, not flaky');
    });
    it('not for the outcomes worth retrying', () => {
      expect(withCode(mutated((g) => { nodeOf(g, 'execute', 'act').config.retry.retryOn = ['timeout', 'parse_error', 'error']; }), 'retry_denied')).toEqual([]);
    });
  });

  describe('no_verdict_tool', () => {
    it('a verdict from a tool needs an inner loop with tools', () => {
      const graph = mutated((g) => { nodeOf(g, 'evaluate', 'verify').config.verdictFrom = 'tool'; });
      expect(withCode(graph, 'no_verdict_tool')).toMatchObject([{ severity: 'warning', nodeId: 'evaluate', path: 'nodes[2].config.verdictFrom' }]);
      nodeOf(graph, 'evaluate', 'verify').config.loop = { decider: 'fallback_lookup', tools: ['search_events'], maxIter: 2 };
      expect(withCode(graph, 'no_verdict_tool')).toEqual([]);
    });
  });

  describe('reserved_state', () => {
    it('state fields the runtime keeps, with the path', () => {
      const graph = mutated((g) => { g.state = { question: 'q', _run: 1, _step: {}, round: 3, 'odd key': 1 }; });
      expect(withCode(graph, 'reserved_state').map((problem) => [problem.path, problem.severity])).toEqual([
        ['state._run', 'error'], ['state._step', 'error'], ['state.round', 'error'],
      ]);
      expect(withCode(graph, 'reserved_state')[0].message).toContain('a run could not start');
    });
    it('state fields named like what every object has, which LangGraph cannot keep: in the state and in a scenario’s', () => {
      const graph = mutated((g) => {
        g.state = { question: 'q', toString: 'a', hasOwnProperty: 1, valueOf: 2, isPrototypeOf: 3, toLocaleString: 4, __lookupGetter__: 5 };
        g.scenarios = [{ name: 's', state: { propertyIsEnumerable: true, question: 'q2' }, expect: {} }];
      });
      const problems = withCode(graph, 'reserved_state');
      expect(problems.map((problem) => [problem.path, problem.severity])).toEqual([
        ['state.toString', 'error'], ['state.hasOwnProperty', 'error'], ['state.valueOf', 'error'], ['state.isPrototypeOf', 'error'],
        ['state.toLocaleString', 'error'], ['state.__lookupGetter__', 'error'], ['scenarios[0].state.propertyIsEnumerable', 'error'],
      ]);
      expect(problems[0].message).toBe('The state field "toString" is named like a member every JavaScript object has, which LangGraph cannot keep as a field: a run could not start. Rename it.');
    });
  });

  it('accessAllowed follows read-only ⊂ workspace ⊂ full', () => {
    expect(accessAllowed('read-only', 'read')).toBe(true);
    expect(accessAllowed('read-only', 'write')).toBe(false);
    expect(accessAllowed('workspace', 'write')).toBe(true);
    expect(accessAllowed('workspace', 'exec')).toBe(false);
    expect(accessAllowed('full', 'exec')).toBe(true);
  });

  it('hasErrors ignores warnings', () => {
    const unreachableOnly = mutated((g) => { g.nodes.push({ id: 'spare', kind: 'stop', position: { x: 0, y: 0 }, config: { reason: 'stopped' } }); });
    expect(validateGraph(unreachableOnly).map((problem) => problem.code)).toEqual(['unreachable']);
    expect(hasErrors(validateGraph(unreachableOnly))).toBe(false);
    expect(hasErrors(validateGraph(mutated((g) => { g.entry = ''; })))).toBe(true);
  });
});

describe('data flow: what a node needs, and where it comes from', () => {
  it('unwritten_read: a Recover fed straight from Act reads an evaluation no node on its way writes', () => {
    const graph = mutated((draft) => {
      // The execute error goes to recover, and evaluate no longer does.
      draft.edges = [...draft.edges.filter((edge) => edge.id !== 'e4'), { id: 'e9', source: 'execute', target: 'recover', when: { outcome: 'error' } }];
    });
    // In round 2 an evaluation is there, but the last round's: the way that fails is named.
    expect(withCode(graph, 'unwritten_read')).toEqual([
      { code: 'unwritten_read', severity: 'warning', nodeId: 'recover', message: 'recover reads "evaluation", but on the way decide → execute → recover no node before it writes it (a Verify node does): there it works on nothing, or on what an earlier round left.' },
    ]);
    // Every way into it with a Verify before it (SecurityClaw's e4) is fine, and so is an initial value.
    expect(withCode(securityclaw(), 'unwritten_read')).toEqual([]);
    expect(withCode({ ...graph, state: { ...graph.state, evaluation: { reason: 'empty_result' } } }, 'unwritten_read')).toEqual([]);
  });

  it('unwritten_read: a Verify with no Act or Collect before it, and an Act with no plan to run', () => {
    const graph = mutated((draft) => {
      draft.entry = 'execute';
      draft.edges = draft.edges.map((edge) => (edge.id === 'e6' ? { ...edge, target: 'evaluate' } : edge)).filter((edge) => edge.id !== 'e1');
    });
    const found = withCode(graph, 'unwritten_read').map((problem) => [problem.nodeId, problem.message.split(',')[0]]);
    expect(found).toEqual([['execute', 'execute reads "plan"']]);
    const noEvidence = mutated((draft) => {
      draft.edges = draft.edges.map((edge) => (edge.id === 'e1' ? { ...edge, target: 'evaluate' } : edge));
    });
    expect(withCode(noEvidence, 'unwritten_read').map((problem) => problem.message.split(':')[0])).toEqual(['evaluate reads "results" or "collected", but on the way decide → evaluate no node before it writes them (a Collect or an Act node does)']);
  });

  it('no_plan: a Reason with no plan to make is an error on its node', () => {
    const scripted = mutated((draft) => {
      const decide = node(draft, 'decide');
      if (decide.kind === 'reason') decide.config.plans = [];
    });
    expect(withCode(scripted, 'no_plan')).toEqual([
      { code: 'no_plan', severity: 'error', nodeId: 'decide', path: 'nodes[0].config.plans', message: 'decide has no plan with an action: its first step fails with nothing to do. Add a round with an action (Plans by round), or plan with an llm.' },
    ]);
    const llm = mutated((draft) => {
      const decide = node(draft, 'decide');
      if (decide.kind === 'reason') decide.config.planner = 'llm';
    });
    expect(withCode(llm, 'no_plan').map((problem) => problem.path)).toEqual(['nodes[0].config.skill']);
    expect(withCode(securityclaw(), 'no_plan')).toEqual([]);
    // A Reason that runs an inner loop plans by its decider's done output (seed 003).
    expect(withCode(findTemplate('graph-engineer')!.graph(), 'no_plan')).toEqual([]);
  });
});
