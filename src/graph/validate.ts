import { budgetLeaves, evaluatingKinds, onBudgetOf } from './budget.ts';
import { dataFlowProblems } from './dataFlow.ts';
import { unreachableRuleProblems } from './kinds/recoveryRules.ts';
import { operandProblems } from './operands.ts';
import { KIND_VALIDATION, longestPlan, loopOptionProblems, type KindValidation } from './kinds/validation.ts';
import { pathsOf } from './describe.ts';
import { KIND_LIST, kindDefinition, type AnyKindDefinition, type SkillReference } from './kinds/index.ts';
import { edgesInTryOrderBySource, isTerminal, outcomesOf, outgoingEdges, reachableFrom } from './model.ts';
import { formatPath } from './problems.ts';
import { RUNTIME_FIELDS, knownPaths, stateKeyRefusal } from './state.ts';
import type { GraphEdge, GraphFile, GraphNode, PermissionMode, ScenarioExpect } from './schema.ts';
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

/** A node's problems, by the part of the list each goes in, and what they were checked against. */
interface NodePart {
  node: GraphNode;
  index: number;
  skills: GraphFile['skills'];
  mode: PermissionMode;
  outgoing: readonly GraphEdge[];
  longest: number;
  /** Whether an Approve node can be reached from it, asked only for a refused skill: it depends on every edge. */
  approval: Approval | undefined;
  skillRefs: Problem[];
  routes: Problem[];
  permission: Problem[];
  own: Problem[];
  loopOption: Problem[];
  readsOnly: Problem[];
  retry: Problem[];
}

/** An edge's problems, and what they were checked against. */
interface EdgePart {
  edge: GraphEdge;
  index: number;
  ids: ReadonlySet<string>;
  known: KnownPaths;
  state: GraphFile['state'];
  ends: Problem[];
  paths: Problem[];
  operands: Problem[];
}

interface KnownPaths {
  paths: ReadonlySet<string>;
  /** Groups with known inner fields: a group without (a state field the file sets) may be read at any depth. */
  shaped: ReadonlySet<string>;
}

/** What depends on the graph as a whole (its ids, where its edges lead, what a run reaches) and the problems found from it. */
interface Whole {
  ids: ReadonlySet<string>;
  /** Each source's edges in the order they are tried. */
  outgoing: ReadonlyMap<string, readonly GraphEdge[]>;
  known: KnownPaths;
  longest: number;
  approveIds: readonly string[];
  /** The nodes from which an Approve node can be reached, by one edge or more. */
  reachesApprove: ReadonlySet<string>;
  head: Problem[];
  duplicateEdges: ReadonlyMap<number, Problem>;
  scenarios: Problem[];
  unreachable: Problem[];
  flow: Problem[];
  onBudget: Problem[];
}

/**
 * A graph with its problems and what they were found from, so that the check after an edit finds
 * them again only where the edit reached (`checkGraph`).
 */
export interface CheckedGraph {
  graph: GraphFile;
  problems: Problem[];
  nodes: NodePart[];
  edges: EdgePart[];
  whole: Whole;
}

const NO_EDGES: readonly GraphEdge[] = [];
const NODE_FINDS = ['skillRefs', 'routes', 'permission', 'own', 'loopOption', 'readsOnly', 'retry'] as const;
const EDGE_FINDS = ['ends', 'paths', 'operands'] as const;

const sameProblem = (a: Problem, b: Problem) =>
  a.code === b.code && a.severity === b.severity && a.message === b.message && a.nodeId === b.nodeId && a.edgeId === b.edgeId && a.path === b.path;
const sameProblems = (a: readonly Problem[], b: readonly Problem[]) => a.length === b.length && a.every((problem, index) => sameProblem(problem, b[index]));

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((item) => b.has(item));
const sameList = <T>(a: readonly T[], b: readonly T[]) => a === b || (a.length === b.length && a.every((item, index) => item === b[index]));

/** A part's problems for the node or edge now at `to` in its list, when it was at `from`: their paths say where. */
const movedTo = (problems: Problem[], list: 'nodes' | 'edges', from: number, to: number): Problem[] => {
  if (from === to) return problems;
  const [before, after] = [`${list}[${from}]`, `${list}[${to}]`];
  return problems.map((problem) => (problem.path?.startsWith(before) ? { ...problem, path: after + problem.path.slice(before.length) } : problem));
};

const knownPathsOf = (graph: GraphFile): KnownPaths => {
  const paths = new Set(knownPaths(graph));
  return { paths, shaped: new Set([...paths].filter((path) => path.includes('.')).map((path) => path.split('.')[0])) };
};

/** The nodes from which one of `targets` can be reached by one edge or more: one walk back along the edges. */
const reachingAny = (graph: GraphFile, ids: ReadonlySet<string>, targets: readonly string[]): Set<string> => {
  const incoming = new Map<string, string[]>();
  for (const edge of graph.edges) {
    if (!ids.has(edge.source)) continue;
    const list = incoming.get(edge.target);
    if (list) list.push(edge.source);
    else incoming.set(edge.target, [edge.source]);
  }
  const seen = new Set<string>();
  const queue = targets.flatMap((id) => incoming.get(id) ?? []);
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(incoming.get(id) ?? []));
  }
  return seen;
};

/** Whether an Approve node other than `node` itself can be reached from it, or the graph has none. */
type Approval = 'reached' | 'unreached' | 'none';
const approvalFrom = (graph: GraphFile, whole: Whole, node: GraphNode): Approval => {
  if (whole.approveIds.length === 0) return 'none';
  // An Approve node that reaches only itself, round a loop, is no other one: its own walk tells.
  const reachable = validationOf(node)?.grantsSkills ? reachableFrom(graph, node.id) : null;
  const reached = reachable ? whole.approveIds.some((id) => id !== node.id && reachable.has(id)) : whole.reachesApprove.has(node.id);
  return reached ? 'reached' : 'unreached';
};

const WHOLE_FINDS = ['head', 'scenarios', 'unreachable', 'flow', 'onBudget'] as const;

/** Whether the whole graph's checks found what they found before; if so, `whole` takes the lists as they were. */
const keepFinds = (before: Whole, whole: Whole) => {
  const same = WHOLE_FINDS.every((key) => sameProblems(before[key], whole[key]))
    && whole.duplicateEdges.size === before.duplicateEdges.size
    && [...whole.duplicateEdges].every(([index, problem]) => { const was = before.duplicateEdges.get(index); return was !== undefined && sameProblem(was, problem); });
  if (same) Object.assign(whole, { duplicateEdges: before.duplicateEdges, ...Object.fromEntries(WHOLE_FINDS.map((key) => [key, before[key]])) });
  return same;
};

const wholeOf = (graph: GraphFile, previous: Whole | null): Whole => {
  const problems: Problem[] = [];
  const fresh = new Set(graph.nodes.map((node) => node.id));
  // The same ids and known paths as before keep every edge's problems found from them.
  const ids = previous && sameSet(previous.ids, fresh) ? previous.ids : fresh;
  const firstById = new Map<string, GraphNode>();
  for (const node of graph.nodes) if (!firstById.has(node.id)) firstById.set(node.id, node);

  const entry = entryProblem(graph, ids);
  if (entry) problems.push({ code: 'no_entry', severity: 'error', message: entry, path: 'entry' });

  if (graph.finally !== undefined) {
    const closing = firstById.get(graph.finally);
    if (!closing) problems.push({ code: 'unknown_node', severity: 'error', message: `"finally" names "${graph.finally}", which is not a node.`, path: 'finally' });
    else if (!kindDefinition(closing.kind).finalResponse) problems.push({ code: 'bad_finally', severity: 'error', message: `"finally" names ${closing.id}, a ${closing.kind} node: it must be a ${kindsThat((definition) => definition.finalResponse)} node, the final response.`, path: 'finally', nodeId: closing.id });
  }

  const seen = new Set<string>();
  graph.nodes.forEach((node, index) => {
    if (seen.has(node.id)) problems.push({ code: 'duplicate_id', severity: 'error', message: `Two nodes are called "${node.id}"; ids must be unique.`, nodeId: node.id, path: `nodes[${index}].id` });
    seen.add(node.id);
  });
  const duplicateEdges = new Map<number, Problem>();
  const seenEdges = new Set<string>();
  graph.edges.forEach((edge, index) => {
    if (seenEdges.has(edge.id)) duplicateEdges.set(index, { code: 'duplicate_id', severity: 'error', message: `Two edges are called "${edge.id}"; ids must be unique.`, edgeId: edge.id, path: `edges[${index}].id` });
    seenEdges.add(edge.id);
  });

  const scenarios: Problem[] = [];
  const edgeIds = graph.scenarios.length > 0 ? new Set(graph.edges.map((edge) => edge.id)) : new Set<string>();
  graph.scenarios.forEach((scenario, index) => {
    for (const skill of Object.keys(scenario.skills ?? {})) {
      if (!definesSkill(graph, skill))
        scenarios.push({ code: 'unknown_skill', severity: 'error', message: `Scenario "${scenario.name}" overrides the skill "${skill}", which the graph does not define.`, path: `scenarios[${index}].skills.${skill}` });
    }
    // A deleted node or edge would make an expectation fail forever, or (notFired, a visit count of 0) pass for nothing.
    for (const { id, where } of scenarioNodeReferences(scenario.expect))
      if (!ids.has(id))
        scenarios.push({ code: 'unknown_node', severity: 'warning', message: `Scenario "${scenario.name}" expects something of the node "${id}", which the graph does not have.`, path: `scenarios[${index}].expect.${where}` });
    for (const id of Object.keys(scenario.decisions ?? {})) {
      const node = firstById.get(id);
      if (!node || !kindDefinition(node.kind).interruptsBefore)
        scenarios.push({ code: 'unknown_node', severity: 'warning', message: `Scenario "${scenario.name}" answers for "${id}", which is ${node ? `a ${node.kind} node, not an ${kindsThat((definition) => definition.interruptsBefore)} node` : 'not a node of the graph'}: the answers are never used.`, path: `scenarios[${index}].decisions.${id}` });
    }
    for (const field of ['fired', 'notFired'] as const)
      (scenario.expect[field] ?? []).forEach((id, at) => {
        if (!edgeIds.has(id))
          scenarios.push({ code: 'unknown_edge', severity: 'warning', message: `Scenario "${scenario.name}" expects the edge "${id}" ${field === 'fired' ? 'to fire' : 'never to fire'}, but the graph has no such edge.`, path: `scenarios[${index}].expect.${field}[${at}]` });
      });
  });

  const outgoing = edgesInTryOrderBySource(graph);
  const reachable = ids.has(graph.entry) ? reachableFrom(graph, graph.entry) : null;
  const unreachable: Problem[] = [];
  if (reachable)
    for (const node of graph.nodes) {
      if (!reachable.has(node.id) && node.id !== graph.finally)
        unreachable.push({ code: 'unreachable', severity: 'warning', message: `No path from the entry "${graph.entry}" reaches ${node.id}: it never runs.`, nodeId: node.id });
    }

  const known = knownPathsOf(graph);
  const approveIds = graph.nodes.filter((node) => validationOf(node)?.grantsSkills).map((node) => node.id);
  return {
    ids,
    outgoing,
    known: previous && sameSet(previous.known.paths, known.paths) ? previous.known : known,
    longest: longestPlan(graph),
    approveIds,
    reachesApprove: approveIds.length > 0 ? reachingAny(graph, ids, approveIds) : new Set(),
    head: problems,
    duplicateEdges,
    scenarios,
    unreachable,
    flow: [...reservedStateProblems(graph), ...dataFlowProblems(graph, { outgoing: outgoingEdges(graph), ids }), ...unreachableRuleProblems(graph, outgoing)],
    onBudget: onBudgetProblems(graph, reachable),
  };
};

const needsOf = (node: GraphNode) => JSON.stringify((kindDefinition(node.kind).needs as ((config: unknown) => unknown) | undefined)?.(node.config) ?? []);

/** Whether the whole graph's checks read `before` and `after` alike: the same id and kind, and of the config what they read. */
const sameForWhole = (before: GraphNode, after: GraphNode) =>
  before.id === after.id && before.kind === after.kind
  && (before.config === after.config
    || (!validationOf(after)?.readByGraph && needsOf(before) === needsOf(after) && JSON.stringify(budgetLeaves(before)) === JSON.stringify(budgetLeaves(after))));

/** Whether an edit from `before` to `after` leaves the whole graph's checks as they were: it changed nodes only, and of them nothing those read. */
const keepsWhole = (before: GraphFile, after: GraphFile) => {
  const keys = Object.keys(after) as (keyof GraphFile)[];
  if (keys.length !== Object.keys(before).length || keys.some((key) => key !== 'nodes' && after[key] !== before[key])) return false;
  if (before.nodes.length !== after.nodes.length) return false;
  return after.nodes.every((node, index) => node === before.nodes[index] || sameForWhole(before.nodes[index], node));
};

const checkNode = (graph: GraphFile, whole: Whole, node: GraphNode, index: number): NodePart => {
  const references = skillReferences(node);
  const skillRefs: Problem[] = [];
  for (const reference of references) {
    if (!definesSkill(graph, reference.skill))
      skillRefs.push({ code: 'unknown_skill', severity: 'error', message: `${node.id} uses the skill "${reference.skill}", which the graph does not define.`, nodeId: node.id, path: `nodes[${index}].${reference.where}` });
  }

  const outgoing = whole.outgoing.get(node.id) ?? NO_EDGES;
  const routes: Problem[] = [];
  if (!isTerminal(node)) {
    if (outgoing.length === 0) routes.push({ code: 'dead_end', severity: 'error', message: `${node.id} has no way out: add an edge, or end the path with a Respond or Stop node.`, nodeId: node.id });
    else if (!outgoing.some((edge) => coversEverything(edge.when))) {
      const routed = new Set(outgoing.flatMap((edge) => routedOutcomes(edge.when)));
      const hasPathConditions = outgoing.some((edge) => pathsOf(edge.when).length > 0);
      for (const outcome of outcomesOf(node)) {
        if (routed.has(outcome)) continue;
        const hint = outcome === 'empty' ? ' An empty result would stop the run instead of entering recovery.' : '';
        routes.push({
          code: 'unrouted_outcome',
          severity: 'warning',
          message: `${node.id} can end with "${outcome}" but no edge takes that outcome and there is no "otherwise"${hasPathConditions ? ' (its field conditions may not cover it)' : ''}: the run would stop with no_route.${hint}`,
          nodeId: node.id,
        });
      }
    }
  }

  // One rule softens a refusal: a node that grants skills (Approve) the run can reach from the refused
  // node, for a skill reference its kind says approval grants (`approvable`: what an Act node runs and
  // was refused, or a recovery rule's skill). A kind that only reads (Collect) refuses a writing skill
  // in any mode: collect_writes says so instead.
  const permission: Problem[] = [];
  let approval: Approval | undefined;
  if (!kindDefinition(node.kind).readsOnly)
    for (const reference of references) {
      const skill = definesSkill(graph, reference.skill) ? graph.skills[reference.skill] : undefined;
      if (!skill || accessAllowed(graph.permissions.mode, effectiveAccess(skill))) continue;
      const grantable = validationOf(node)?.approvable?.(reference) ?? false;
      approval ??= approvalFrom(graph, whole, node);
      const softened = grantable && approval === 'reached';
      const why = softened ? ''
          : !grantable ? ` Approval cannot grant it there (it grants what an Act node was refused — its skill, its loop's tools, a plan's actions, never a decider, which is asked every iteration — or a recovery rule's skill).`
            : approval === 'unreached' ? ` No Approve node can be reached from ${node.id}.` : '';
      permission.push({
        code: 'permission_conflict',
        severity: softened ? 'warning' : 'error',
        message: `${node.id} uses "${reference.skill}", which needs ${effectiveAccess(skill)} access, but the graph runs ${graph.permissions.mode}: every call will be denied${softened ? ' unless a person approves it' : ''}.${why}`,
        nodeId: node.id,
      });
    }

  return {
    node, index, skills: graph.skills, mode: graph.permissions.mode, outgoing, longest: whole.longest, approval,
    skillRefs, routes, permission,
    // What each kind checks in its own config (kinds/validation.ts): capped work, a verdict with no tool, no plan.
    own: validationOf(node)?.check?.(node, index, whole.longest) ?? [],
    loopOption: loopOptionProblems(node, index),
    readsOnly: readsOnlyProblems(graph, node, index),
    retry: retryProblems(node, index),
  };
};

/** The part found for `node` before, if what it was checked against is the same now (its place aside). */
const nodeKept = (graph: GraphFile, whole: Whole, wholeKept: boolean, part: NodePart, node: GraphNode): boolean =>
  part.node === node && part.skills === graph.skills && part.mode === graph.permissions.mode && part.longest === whole.longest
  && sameList(part.outgoing, whole.outgoing.get(node.id) ?? NO_EDGES)
  && (wholeKept || part.approval === undefined || part.approval === approvalFrom(graph, whole, node));

const checkEdge = (graph: GraphFile, whole: Whole, edge: GraphEdge, index: number): EdgePart => {
  const ends: Problem[] = [];
  for (const end of ['source', 'target'] as const) {
    if (!whole.ids.has(edge[end]))
      ends.push({ code: 'unknown_node', severity: 'error', message: `Edge ${edge.id} ${end === 'source' ? 'starts at' : 'leads to'} "${edge[end]}", which is not a node.`, edgeId: edge.id, path: `edges[${index}].${end}` });
  }
  const paths: Problem[] = [];
  const { paths: known, shaped } = whole.known;
  for (const path of pathsOf(edge.when)) {
    const [group] = path.split('.');
    if (!(known.has(path) || (known.has(group) && !shaped.has(group))))
      paths.push({ code: 'unknown_path', severity: 'error', message: `Edge ${edge.id} reads "${path}", which no node of this graph writes and the initial state does not hold.`, edgeId: edge.id, path: `edges[${index}].when` });
  }
  return { edge, index, ids: whole.ids, known: whole.known, state: graph.state, ends, paths, operands: operandProblems(graph.state, edge, index) };
};

const edgeKept = (graph: GraphFile, whole: Whole, part: EdgePart, edge: GraphEdge): boolean =>
  part.edge === edge && part.ids === whole.ids && part.known === whole.known && part.state === graph.state;

/**
 * Each node's or edge's part after an edit: the one found before (at its place in a list of the same
 * length, else the one found for the same object) where what it was checked against is the same, at
 * its new place; else found again. `changed`: whether any of them finds other problems than before.
 */
const partsAfter = <T, K extends string, P extends { index: number } & Record<K, Problem[]>>(
  items: readonly T[],
  before: readonly P[],
  itemOf: (part: P) => T,
  list: 'nodes' | 'edges',
  finds: readonly K[],
  kept: (part: P, item: T) => boolean,
  check: (item: T, index: number) => P,
): { parts: P[]; changed: boolean } => {
  let lookup: Map<T, P> | null = null;
  const partOf = (item: T, index: number): P | undefined => {
    const there = before[index];
    if (items.length === before.length || (there && itemOf(there) === item)) return there;
    lookup ??= new Map(before.map((part) => [itemOf(part), part]));
    return lookup.get(item);
  };
  let changed = false;
  const parts = items.map((item, index): P => {
    const part = partOf(item, index);
    if (!part || !kept(part, item)) {
      const checked = check(item, index);
      // Checked again at its place and found what it found before (a rename): the lists as they were.
      if (part?.index === index && finds.every((key) => sameProblems(part[key], checked[key]))) for (const key of finds) checked[key] = part[key];
      else changed = true;
      return checked;
    }
    if (part.index === index) return part;
    changed = true;
    const moved = { ...part, index };
    for (const key of finds) moved[key] = movedTo(part[key], list, part.index, index) as P[K];
    return moved;
  });
  return { parts, changed };
};

/**
 * The graph's problems, found again after an edit only where it reached: a node or an edge the edit
 * kept, checked against what is still the same, keeps what was found for it; what depends on the
 * graph as a whole (ids, reachability, data flow) is found again only when the edit changed edges,
 * ids, kinds, the graph's settings, or what those checks read of a node's config. `previous` is any
 * earlier check (of the graph before the edit, for the most to keep); without one, every check runs.
 */
export const checkGraph = (graph: GraphFile, previous: CheckedGraph | null = null): CheckedGraph => {
  if (previous?.graph === graph) return previous;
  const wholeKept = previous !== null && keepsWhole(previous.graph, graph);
  const whole = wholeKept ? previous.whole : wholeOf(graph, previous?.whole ?? null);
  let changed = previous === null;
  if (previous && !wholeKept) changed = !keepFinds(previous.whole, whole);

  const nodes = partsAfter(graph.nodes, previous?.nodes ?? [], (part) => part.node, 'nodes', NODE_FINDS,
    (part, node) => nodeKept(graph, whole, wholeKept, part, node), (node, index) => checkNode(graph, whole, node, index));
  const edges = partsAfter(graph.edges, previous?.edges ?? [], (part) => part.edge, 'edges', EDGE_FINDS,
    (part, edge) => edgeKept(graph, whole, part, edge), (edge, index) => checkEdge(graph, whole, edge, index));
  changed ||= nodes.changed || edges.changed;
  // Nothing found differs: the same list, so what shows problems has nothing to draw again.
  if (previous && !changed && nodes.parts.length === previous.nodes.length && edges.parts.length === previous.edges.length)
    return { graph, problems: previous.problems, nodes: nodes.parts, edges: edges.parts, whole };

  // The order of a full check: the graph's head, edges, skills, scenarios, reachability, routes,
  // paths, permissions, each kind's own, loop options, reads, retries, data flow, operands, budget.
  const problems: Problem[] = [...whole.head];
  // Most parts find nothing: a loop over each, not a spread of every empty list.
  const add = (found: readonly Problem[]) => {
    for (const problem of found) problems.push(problem);
  };
  edges.parts.forEach((part, index) => {
    const duplicate = whole.duplicateEdges.get(index);
    if (duplicate) problems.push(duplicate);
    add(part.ends);
  });
  for (const part of nodes.parts) add(part.skillRefs);
  add(whole.scenarios);
  add(whole.unreachable);
  for (const part of nodes.parts) add(part.routes);
  for (const part of edges.parts) add(part.paths);
  for (const key of ['permission', 'own', 'loopOption', 'readsOnly', 'retry'] as const) for (const part of nodes.parts) add(part[key]);
  add(whole.flow);
  for (const part of edges.parts) add(part.operands);
  add(whole.onBudget);
  return { graph, problems, nodes: nodes.parts, edges: edges.parts, whole };
};

export const validateGraph = (graph: GraphFile): Problem[] => checkGraph(graph).problems;

/** `limits.onBudget: "evaluate"` that cannot do what it says: no budget to spend, or nothing the run reaches judges without a call. */
const onBudgetProblems = (graph: GraphFile, reachable: ReadonlySet<string> | null): Problem[] => {
  if (onBudgetOf(graph.limits) !== 'evaluate' || !reachable) return [];
  const at = { code: 'on_budget', severity: 'warning', path: 'limits.onBudget' } as const;
  if (graph.limits.tokenBudget === undefined) return [{ ...at, message: 'limits.onBudget is "evaluate" but the graph has no tokenBudget: no budget is ever spent, so it never applies.' }];
  const judging = graph.nodes.filter((node) => reachable.has(node.id) && kindDefinition(node.kind).evaluates);
  if (judging.some((node) => budgetLeaves(node).evaluates)) return [];
  const calls = judging.map((node) => `${node.id} calls ${budgetLeaves(node).calls}`);
  return [{
    ...at,
    message: `limits.onBudget is "evaluate", but no ${evaluatingKinds()} node the run can reach judges without a call${calls.length ? ` (${calls.join(', ')}: a call a spent budget does not make)` : ''}: a spent budget stops the run at once, as "stop" does.`,
  }];
};

/** A kind that only reads (Collect) names a skill that writes or executes: it would be refused at every call. */
const readsOnlyProblems = (graph: GraphFile, node: GraphNode, index: number): Problem[] => {
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
};

/** `permission_denied` in a retry policy: a refusal is decided, not flaky, and is never retried. */
const retryProblems = (node: GraphNode, index: number): Problem[] => {
  const retryOn = (node.config as { retry?: { retryOn: readonly string[] } }).retry?.retryOn ?? [];
  return retryOn.flatMap((outcome, at) => (outcome === 'permission_denied' ? [{
    code: 'retry_denied', severity: 'error', nodeId: node.id, path: `nodes[${index}].config.retry.retryOn[${at}]`,
    message: `${node.id} retries on permission_denied, which is never retried: a refusal is decided by the permission mode, not flaky, and asking again gives the same answer. Remove it; an Approve node is how a refusal is lifted.`,
  } satisfies Problem] : []));
};

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

