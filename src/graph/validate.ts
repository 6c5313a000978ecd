import { budgetLeaves, evaluatingKinds, onBudgetOf } from './budget.ts';
import { dataFlowProblems } from './dataFlow.ts';
import { unreachableRuleProblems } from './kinds/recoveryRules.ts';
import { operandProblems } from './operands.ts';
import { KIND_VALIDATION, loopOptionProblems, type KindValidation } from './kinds/validation.ts';
import { pathsOf } from './describe.ts';
import { KIND_LIST, kindDefinition, type AnyKindDefinition, type SkillReference } from './kinds/index.ts';
import { edgesInTryOrderBySource, isTerminal, outcomesOf, reachableFrom } from './model.ts';
import { formatPath } from './problems.ts';
import { RUNTIME_FIELDS, knownPaths, stateKeyRefusal } from './state.ts';
import type { GraphFile, GraphNode, PermissionMode, ScenarioExpect } from './schema.ts';
import { effectiveAccess, type Access } from './skills.ts';
import type { When } from './when.ts';

export const PROBLEM_CODES = [
  'on_budget',
  'no_entry', 'duplicate_id', 'unknown_node', 'unknown_skill', 'unreachable', 'dead_end',
  'unrouted_outcome', 'unknown_path', 'permission_conflict', 'bad_finally', 'capped_work', 'unknown_edge',
  'collect_writes', 'retry_denied', 'reserved_state', 'no_verdict_tool', 'unwritten_read', 'no_plan',
  'loop_option', 'unreachable_rule', 'bad_operand',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

export interface Problem {
  code: ProblemCode;
  severity: 'error' | 'warning';
  message: string;
  nodeId?: string;
  edgeId?: string;
  /** Where in the file, as parse problems name it. */
  path?: string;
}

const ACCESS_ALLOWED: Record<PermissionMode, readonly Access[]> = {
  'read-only': ['read'],
  workspace: ['read', 'write'],
  full: ['read', 'write', 'exec'],
};

/** The node ids a scenario's expectations name, with where. */
const scenarioNodeReferences = (expect: ScenarioExpect): { id: string; where: string }[] => [
  ...(['path', 'pathIncludes'] as const).flatMap((field) => (expect[field] ?? []).map((id, at) => ({ id, where: `${field}[${at}]` }))),
  ...(['attempts', 'visits'] as const).flatMap((field) => Object.keys(expect[field] ?? {}).map((id) => ({ id, where: `${field}.${id}` }))),
];

export const accessAllowed = (mode: PermissionMode, access: Access): boolean => ACCESS_ALLOWED[mode].includes(access);

/** Every skill name a node refers to, with where it does so: its kind's definition knows. */
const skillReferences = (node: GraphNode): SkillReference[] => (kindDefinition(node.kind).skillRefs as (config: unknown) => SkillReference[])(node.config);

/** Own keys only: `toString` or `constructor` is not a skill just because every object has one. */
const definesSkill = (graph: GraphFile, name: string) => Object.hasOwn(graph.skills, name);

/** Outcomes an edge surely takes: `{outcome}`, or any branch of an `any` that does. */
const routedOutcomes = (when: When | undefined): string[] => {
  if (when === undefined || typeof when === 'string') return [];
  if ('outcome' in when) return [when.outcome];
  if ('any' in when) return when.any.flatMap(routedOutcomes);
  return [];
};

/** What validation knows of a node's kind beyond its definition (kinds/validation.ts). */
const validationOf = (node: GraphNode) => KIND_VALIDATION[node.kind] as KindValidation<GraphNode['kind']> | undefined;

/** The kinds with a capability, by name, for messages: `approve`, or `a or b` when several have it. */
const kindsThat = (capable: (definition: AnyKindDefinition) => boolean | undefined) =>
  KIND_LIST.filter(capable).map((definition) => definition.kind).join(' or ');

const coversEverything = (when: When | undefined) => when === undefined || when === 'always' || when === 'otherwise';

const SET_ENTRY = 'set one where a run starts: "Set as entry" on a node, or Entry in the graph\'s settings (`entry` in the file)';

/** What keeps a run from starting on the graph's entry, for Problems and for a run refused at its start; null when nothing does. */
export const entryProblem = (graph: GraphFile, nodeIds: ReadonlySet<string> | ReadonlyMap<string, unknown>): string | null => {
  if (!graph.entry) return `The graph has no entry node: ${SET_ENTRY}.`;
  return nodeIds.has(graph.entry) ? null : `The entry "${graph.entry}" is not a node of this graph: ${SET_ENTRY}.`;
};

export const validateGraph = (graph: GraphFile): Problem[] => {
  const problems: Problem[] = [];
  const nodeIds = new Set(graph.nodes.map((node) => node.id));

  const entry = entryProblem(graph, nodeIds);
  if (entry) problems.push({ code: 'no_entry', severity: 'error', message: entry, path: 'entry' });

  if (graph.finally !== undefined) {
    const closing = graph.nodes.find((node) => node.id === graph.finally);
    if (!closing) problems.push({ code: 'unknown_node', severity: 'error', message: `"finally" names "${graph.finally}", which is not a node.`, path: 'finally' });
    else if (!kindDefinition(closing.kind).finalResponse) problems.push({ code: 'bad_finally', severity: 'error', message: `"finally" names ${closing.id}, a ${closing.kind} node: it must be a ${kindsThat((definition) => definition.finalResponse)} node, the final response.`, path: 'finally', nodeId: closing.id });
  }

  const seen = new Set<string>();
  graph.nodes.forEach((node, index) => {
    if (seen.has(node.id)) problems.push({ code: 'duplicate_id', severity: 'error', message: `Two nodes are called "${node.id}"; ids must be unique.`, nodeId: node.id, path: `nodes[${index}].id` });
    seen.add(node.id);
  });
  const seenEdges = new Set<string>();
  graph.edges.forEach((edge, index) => {
    if (seenEdges.has(edge.id)) problems.push({ code: 'duplicate_id', severity: 'error', message: `Two edges are called "${edge.id}"; ids must be unique.`, edgeId: edge.id, path: `edges[${index}].id` });
    seenEdges.add(edge.id);
    for (const end of ['source', 'target'] as const) {
      if (!nodeIds.has(edge[end]))
        problems.push({ code: 'unknown_node', severity: 'error', message: `Edge ${edge.id} ${end === 'source' ? 'starts at' : 'leads to'} "${edge[end]}", which is not a node.`, edgeId: edge.id, path: `edges[${index}].${end}` });
    }
  });

  graph.nodes.forEach((node, index) => {
    for (const reference of skillReferences(node)) {
      if (!definesSkill(graph, reference.skill))
        problems.push({ code: 'unknown_skill', severity: 'error', message: `${node.id} uses the skill "${reference.skill}", which the graph does not define.`, nodeId: node.id, path: `nodes[${index}].${reference.where}` });
    }
  });
  const edgeIds = new Set(graph.edges.map((edge) => edge.id));
  graph.scenarios.forEach((scenario, index) => {
    for (const skill of Object.keys(scenario.skills ?? {})) {
      if (!definesSkill(graph, skill))
        problems.push({ code: 'unknown_skill', severity: 'error', message: `Scenario "${scenario.name}" overrides the skill "${skill}", which the graph does not define.`, path: `scenarios[${index}].skills.${skill}` });
    }
    // A deleted node or edge would make an expectation fail forever, or (notFired, a visit count of 0) pass for nothing.
    for (const { id, where } of scenarioNodeReferences(scenario.expect))
      if (!nodeIds.has(id))
        problems.push({ code: 'unknown_node', severity: 'warning', message: `Scenario "${scenario.name}" expects something of the node "${id}", which the graph does not have.`, path: `scenarios[${index}].expect.${where}` });
    for (const id of Object.keys(scenario.decisions ?? {})) {
      const node = graph.nodes.find((candidate) => candidate.id === id);
      if (!node || !kindDefinition(node.kind).interruptsBefore)
        problems.push({ code: 'unknown_node', severity: 'warning', message: `Scenario "${scenario.name}" answers for "${id}", which is ${node ? `a ${node.kind} node, not an ${kindsThat((definition) => definition.interruptsBefore)} node` : 'not a node of the graph'}: the answers are never used.`, path: `scenarios[${index}].decisions.${id}` });
    }
    for (const field of ['fired', 'notFired'] as const)
      (scenario.expect[field] ?? []).forEach((id, at) => {
        if (!edgeIds.has(id))
          problems.push({ code: 'unknown_edge', severity: 'warning', message: `Scenario "${scenario.name}" expects the edge "${id}" ${field === 'fired' ? 'to fire' : 'never to fire'}, but the graph has no such edge.`, path: `scenarios[${index}].expect.${field}[${at}]` });
      });
  });

  if (nodeIds.has(graph.entry)) {
    const reachable = reachableFrom(graph, graph.entry);
    for (const node of graph.nodes) {
      if (!reachable.has(node.id) && node.id !== graph.finally)
        problems.push({ code: 'unreachable', severity: 'warning', message: `No path from the entry "${graph.entry}" reaches ${node.id}: it never runs.`, nodeId: node.id });
    }
  }

  const edgesBySource = edgesInTryOrderBySource(graph);
  for (const node of graph.nodes) {
    if (isTerminal(node)) continue;
    const outgoing = edgesBySource.get(node.id) ?? [];
    if (outgoing.length === 0) {
      problems.push({ code: 'dead_end', severity: 'error', message: `${node.id} has no way out: add an edge, or end the path with a Respond or Stop node.`, nodeId: node.id });
      continue;
    }
    if (outgoing.some((edge) => coversEverything(edge.when))) continue;
    const routed = new Set(outgoing.flatMap((edge) => routedOutcomes(edge.when)));
    const hasPathConditions = outgoing.some((edge) => pathsOf(edge.when).length > 0);
    for (const outcome of outcomesOf(node)) {
      if (routed.has(outcome)) continue;
      const hint = outcome === 'empty' ? ' An empty result would stop the run instead of entering recovery.' : '';
      problems.push({
        code: 'unrouted_outcome',
        severity: 'warning',
        message: `${node.id} can end with "${outcome}" but no edge takes that outcome and there is no "otherwise"${hasPathConditions ? ' (its field conditions may not cover it)' : ''}: the run would stop with no_route.${hint}`,
        nodeId: node.id,
      });
    }
  }

  const paths = new Set(knownPaths(graph));
  // A group with no known inner fields (a state field the file sets) may be read at any depth.
  const shapedGroups = new Set([...paths].filter((path) => path.includes('.')).map((path) => path.split('.')[0]));
  graph.edges.forEach((edge, index) => {
    for (const path of pathsOf(edge.when)) {
      const [group] = path.split('.');
      const known = paths.has(path) || (paths.has(group) && !shapedGroups.has(group));
      if (!known)
        problems.push({ code: 'unknown_path', severity: 'error', message: `Edge ${edge.id} reads "${path}", which no node of this graph writes and the initial state does not hold.`, edgeId: edge.id, path: `edges[${index}].when` });
    }
  });

  // One rule softens a refusal: a node that grants skills (Approve) the run can reach from the refused
  // node, for a skill reference its kind says approval grants (`approvable`: what an Act node runs and
  // was refused, or a recovery rule's skill). A kind that only reads (Collect) refuses a writing skill
  // in any mode: collect_writes says so instead.
  const approveIds = graph.nodes.filter((node) => validationOf(node)?.grantsSkills).map((node) => node.id);
  const approveReachable = (node: GraphNode) => {
    const reachable = reachableFrom(graph, node.id);
    return approveIds.some((id) => id !== node.id && reachable.has(id));
  };
  graph.nodes.forEach((node) => {
    if (kindDefinition(node.kind).readsOnly) return;
    let canApprove: boolean | undefined;
    for (const reference of skillReferences(node)) {
      const skill = definesSkill(graph, reference.skill) ? graph.skills[reference.skill] : undefined;
      if (!skill || accessAllowed(graph.permissions.mode, effectiveAccess(skill))) continue;
      const grantable = validationOf(node)?.approvable?.(reference) ?? false;
      canApprove ??= approveIds.length > 0 && approveReachable(node);
      const softened = grantable && canApprove;
      const why = softened ? ''
          : !grantable ? ` Approval cannot grant it there (it grants what an Act node was refused — its skill, its loop's tools, a plan's actions, never a decider, which is asked every iteration — or a recovery rule's skill).`
            : approveIds.length > 0 ? ` No Approve node can be reached from ${node.id}.` : '';
      problems.push({
        code: 'permission_conflict',
        severity: softened ? 'warning' : 'error',
        message: `${node.id} uses "${reference.skill}", which needs ${effectiveAccess(skill)} access, but the graph runs ${graph.permissions.mode}: every call will be denied${softened ? ' unless a person approves it' : ''}.${why}`,
        nodeId: node.id,
      });
    }
  });

  // What each kind checks in its own config (kinds/validation.ts): capped work, a verdict with no tool, no plan.
  graph.nodes.forEach((node, index) => {
    problems.push(...(validationOf(node)?.check?.(node, index, graph) ?? []));
  });

  problems.push(...loopOptionProblems(graph));
  problems.push(...readsOnlyProblems(graph), ...retryProblems(graph), ...reservedStateProblems(graph), ...dataFlowProblems(graph), ...unreachableRuleProblems(graph), ...operandProblems(graph));
  problems.push(...onBudgetProblems(graph));
  return problems;
};

/** `limits.onBudget: "evaluate"` that cannot do what it says: no budget to spend, or nothing the run reaches judges without a call. */
const onBudgetProblems = (graph: GraphFile): Problem[] => {
  if (onBudgetOf(graph.limits) !== 'evaluate' || !graph.nodes.some((node) => node.id === graph.entry)) return [];
  const at = { code: 'on_budget', severity: 'warning', path: 'limits.onBudget' } as const;
  if (graph.limits.tokenBudget === undefined) return [{ ...at, message: 'limits.onBudget is "evaluate" but the graph has no tokenBudget: no budget is ever spent, so it never applies.' }];
  const reachable = reachableFrom(graph, graph.entry);
  const judging = graph.nodes.filter((node) => reachable.has(node.id) && kindDefinition(node.kind).evaluates);
  if (judging.some((node) => budgetLeaves(node).evaluates)) return [];
  const calls = judging.map((node) => `${node.id} calls ${budgetLeaves(node).calls}`);
  return [{
    ...at,
    message: `limits.onBudget is "evaluate", but no ${evaluatingKinds()} node the run can reach judges without a call${calls.length ? ` (${calls.join(', ')}: a call a spent budget does not make)` : ''}: a spent budget stops the run at once, as "stop" does.`,
  }];
};

/** A kind that only reads (Collect) names a skill that writes or executes: it would be refused at every call. */
const readsOnlyProblems = (graph: GraphFile): Problem[] =>
  graph.nodes.flatMap((node, index) => {
    const definition = kindDefinition(node.kind);
    if (!definition.readsOnly) return [];
    return skillReferences(node).flatMap((reference) => {
      const skill = definesSkill(graph, reference.skill) ? graph.skills[reference.skill] : undefined;
      const access = skill && effectiveAccess(skill);
      if (!access || access === 'read') return [];
      return [{
        code: 'collect_writes', severity: 'error', nodeId: node.id, path: `nodes[${index}].${reference.where}`,
        message: `${node.id} is a ${definition.title} node, which only reads, but "${reference.skill}" needs ${access} access: it is refused before every call, whatever the permission mode. Move it to an Act node.`,
      } satisfies Problem];
    });
  });

/** `permission_denied` in a retry policy: a refusal is decided, not flaky, and is never retried. */
const retryProblems = (graph: GraphFile): Problem[] =>
  graph.nodes.flatMap((node, index) => {
    const retryOn = (node.config as { retry?: { retryOn: readonly string[] } }).retry?.retryOn ?? [];
    return retryOn.flatMap((outcome, at) => (outcome === 'permission_denied' ? [{
      code: 'retry_denied', severity: 'error', nodeId: node.id, path: `nodes[${index}].config.retry.retryOn[${at}]`,
      message: `${node.id} retries on permission_denied, which is never retried: a refusal is decided by the permission mode, not flaky, and asking again gives the same answer. Remove it; an Approve node is how a refusal is lifted.`,
    } satisfies Problem] : []));
  });

/**
 * An initial state field (the graph's, or a scenario's over it) that cannot be one: beside the state
 * or named like what every object has (the run could not start), or reset at the start.
 */
const reservedStateProblems = (graph: GraphFile): Problem[] =>
  [
    ...reservedFieldProblems(graph.state, ['state']),
    ...graph.scenarios.flatMap((scenario, index) => reservedFieldProblems(scenario.state ?? {}, ['scenarios', index, 'state'])),
  ];

const reservedFieldProblems = (state: Record<string, unknown>, at: (string | number)[]): Problem[] =>
  Object.keys(state).flatMap((key) => {
    const refusal = stateKeyRefusal(key);
    if (!refusal && !(RUNTIME_FIELDS as readonly string[]).includes(key)) return [];
    return [{
      code: 'reserved_state', severity: 'error', path: formatPath([...at, key]),
      message: refusal
        ? `${refusal[0].toUpperCase()}${refusal.slice(1)}: a run could not start. Rename it.`
        : `The state field "${key}" is kept by the runtime, which sets it when a run starts: the value here would be ignored. Rename it.`,
    } satisfies Problem];
  });

export const hasErrors = (problems: readonly Problem[]) => problems.some((problem) => problem.severity === 'error');

