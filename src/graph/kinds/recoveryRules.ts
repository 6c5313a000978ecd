/**
 * `unreachable_rule`: a recovery rule no path can bring its trigger to. A Recover node picks its rule
 * by `evaluation.reason`, which only a Verify node writes; a rule applies only if some Verify node
 * can end with that reason and the edges out of it, read with that evaluation, lead to the Recover
 * node before another Verify node writes a new one. (Seed 001's SecurityClaw had `coverage_low →
 * broaden_evidence` while Evaluate sent low coverage back to decide: the rule could never apply, and
 * the run re-planned the same search, a blind retry.)
 */
import { countedVerdicts, FAILURE_REASONS } from './counting.ts';
import type { Problem } from '../validate.ts';
import type { GraphEdge, GraphFile, GraphNode } from '../schema.ts';
import { compareOp } from '../compare.ts';
import type { When } from '../when.ts';

/** An evaluation a Verify node without a judge or a loop writes (runtime/kinds/verify.ts), with its outcome. */
interface Ending {
  reason: string;
  outcome: string;
  evaluation: { reason: string; plan_exhausted: boolean; evidence_sufficient: boolean };
}

const ending = (reason: string, outcome: 'sufficient' | 'exhausted' | 'continue'): Ending => ({
  reason, outcome, evaluation: { reason, plan_exhausted: outcome === 'exhausted', evidence_sufficient: outcome === 'sufficient' },
});

/** What a counting Verify can end with: the reasons of the failed call before it, and its own as `minRecords` allows them. */
const countedEndings = (minRecords: number): Ending[] => [
  ...countedVerdicts(minRecords).map(({ reason, outcome }) => ending(reason, outcome)),
  ...FAILURE_REASONS.map((reason) => ending(reason, 'exhausted')),
];

/**
 * A condition read with only the outcome and the evaluation known: true, false, or undefined when it
 * reads something else (round, a field of the state), which may go either way.
 */
const could = (when: When | undefined, known: Ending): boolean | undefined => {
  if (when === undefined || when === 'always') return true;
  if (when === 'otherwise') return undefined;
  if ('outcome' in when) return when.outcome === known.outcome;
  if ('path' in when) {
    const [group, field, ...deeper] = when.path.split('.');
    if (group !== 'evaluation' || deeper.length > 0 || !Object.hasOwn(known.evaluation, field)) return undefined;
    return compareOp(when.op, known.evaluation[field as keyof Ending['evaluation']], when.value);
  }
  if ('not' in when) {
    const inner = could(when.not, known);
    return inner === undefined ? undefined : !inner;
  }
  const parts = ('all' in when ? when.all : when.any).map((part) => could(part, known));
  const decisive = 'all' in when ? false : true;
  if (parts.includes(decisive)) return decisive;
  return parts.includes(undefined) ? undefined : !decisive;
};

/** Where a node's edges may take the run after `known`: the first edge that surely matches ends the list. */
const possibleEdges = (edges: readonly GraphEdge[], known: Ending): GraphEdge[] => {
  const possible: GraphEdge[] = [];
  for (const edge of edges) {
    const matches = edge.when === 'otherwise' ? true : could(edge.when, known);
    if (matches === false) continue;
    possible.push(edge);
    if (matches === true) break;
  }
  return possible;
};

/** `outgoing`: each source's edges in the order they are tried (model.ts edgesInTryOrderBySource), made once by validate.ts. */
export const unreachableRuleProblems = (graph: GraphFile, outgoing: ReadonlyMap<string, readonly GraphEdge[]>): Problem[] => {
  const recovers = graph.nodes.flatMap((node, index) => (node.kind === 'recover' && node.config.rules.length > 0 ? [{ node, index }] : []));
  if (recovers.length === 0) return [];
  const kinds = new Map(graph.nodes.map((node) => [node.id, node.kind]));
  /** The nodes the run may reach from `start` before a Verify node writes a new evaluation. */
  const keeping = (start: string): Set<string> => {
    const seen = new Set<string>();
    const queue = [start];
    while (queue.length > 0) {
      const id = queue.pop() as string;
      if (seen.has(id)) continue;
      seen.add(id);
      if (kinds.get(id) === 'verify') continue;
      for (const edge of outgoing.get(id) ?? []) queue.push(edge.target);
    }
    return seen;
  };
  const verifies = graph.nodes.filter((node): node is Extract<GraphNode, { kind: 'verify' }> => node.kind === 'verify');
  // A judge, a loop's decider or the initial state may write any reason: every rule their paths reach may apply.
  const givenEvaluation = [graph.state, ...graph.scenarios.map((scenario) => scenario.state ?? {})].some((state) => Object.hasOwn(state, 'evaluation'));
  const anyReason = new Set<string>(givenEvaluation ? graph.nodes.map((node) => node.id) : []);
  /** Per counted reason, the nodes a Verify ending with it can bring the run to, and where each Verify sends it. */
  const reached = new Map<string, Set<string>>();
  const sentTo = new Map<string, string[]>();
  for (const verify of verifies) {
    const edges = outgoing.get(verify.id) ?? [];
    if (verify.config.judge || verify.config.loop) {
      for (const edge of edges) for (const id of keeping(edge.target)) anyReason.add(id);
      continue;
    }
    const { minRecords } = verify.config;
    const endings = countedEndings(minRecords);
    for (const never of countedEndings(2).filter((candidate) => !endings.some((known) => known.reason === candidate.reason))) {
      const takes = never.reason === 'coverage_low' ? 'some records but fewer than needed, which takes minRecords 2 or more' : 'zero records, which are empty only when minRecords is 1 or more';
      sentTo.set(never.reason, [...(sentTo.get(never.reason) ?? []), `${verify.id} never ends with it (it needs ${minRecords} record(s); "${never.reason}" means ${takes})`]);
    }
    for (const known of endings) {
      const targets = possibleEdges(edges, known).map((edge) => edge.target);
      const into = reached.get(known.reason) ?? new Set<string>();
      for (const target of targets) for (const id of keeping(target)) into.add(id);
      reached.set(known.reason, into);
      sentTo.set(known.reason, [...(sentTo.get(known.reason) ?? []), `${verify.id} ends it with the outcome ${known.outcome} (plan_exhausted ${known.evaluation.plan_exhausted}) and goes to ${targets.join(' or ') || 'no node'}`]);
    }
  }
  return recovers.flatMap(({ node, index }) => {
    if (node.kind !== 'recover' || anyReason.has(node.id)) return [];
    return node.config.rules.flatMap((rule, at) => {
      if (rule.reason === 'otherwise' || reached.get(rule.reason)?.has(node.id)) return [];
      const where = sentTo.get(rule.reason);
      const why = where ? where.join('; ') : `no Verify node ends with the reason "${rule.reason}"`;
      return [{
        code: 'unreachable_rule', severity: 'warning', nodeId: node.id, path: `nodes[${index}].config.rules[${at}].reason`,
        message: `${node.id}'s rule for "${rule.reason}" (${rule.action}) can never apply: ${why}, so no path brings a "${rule.reason}" evaluation to ${node.id}. Route it there, or remove the rule.`,
      } satisfies Problem];
    });
  });
};
