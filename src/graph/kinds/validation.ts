/**
 * What validation knows of a kind beyond its definition: the checks of its own config and how it
 * stands to approvals. Kept beside the definitions but out of them: the first screen loads the
 * definitions, validation comes later. A kind with none of these has no entry.
 */
import type { GraphFile, GraphNode, NodeOfKind } from '../schema.ts';
import type { Problem } from '../validate.ts';
import type { NodeKind, SkillReference } from './index.ts';

export interface KindValidation<K extends NodeKind> {
  /**
   * The node's own problems, beyond what every node gets; `index` is its place in `graph.nodes`, for
   * the path. Of the rest of the graph it reads only `longestPlan`: validate.ts checks a node again
   * only when it or that changed.
   */
  check?: (node: NodeOfKind<K>, index: number, longestPlan: number) => Problem[];
  /** Its approval lifts a permission refusal once: a refused skill from which such a node can be reached is a warning, not an error. */
  grantsSkills?: true;
  /** Which of its skill references an approval can grant when the permission check refuses them (absent: none). */
  approvable?: (reference: SkillReference) => boolean;
  /**
   * Checks of the whole graph read its config beyond what it needs and spends (Reason's plans, Verify's
   * endings, Recover's rules): an edit of it checks the graph again as a whole (validate.ts).
   */
  readByGraph?: true;
}

/** The most actions a Reason node's scripted plan holds (an Act node runs them). */
export const longestPlan = (graph: GraphFile) => {
  let longest = 0;
  for (const node of graph.nodes) if (node.kind === 'reason') for (const plan of node.config.plans) longest = Math.max(longest, plan.actions.length);
  return longest;
};

export const KIND_VALIDATION: { [K in NodeKind]?: KindValidation<K> } = {
  reason: {
    // A Reason node that has nothing to plan: a scripted planner with no action in any plan, an llm
    // planner with no skill. One that runs an inner loop plans by its decider's done output.
    check: (node, index) => {
      if (node.config.loop) return [];
      const { planner, plans, skill } = node.config;
      if (planner === 'llm' && !skill)
        return [{ code: 'no_plan', severity: 'error', message: `${node.id} plans with an llm but names no planner skill: its first step fails. Pick the LLM skill that makes the plan.`, nodeId: node.id, path: `nodes[${index}].config.skill` }];
      if (planner !== 'llm' && !plans.some((plan) => plan.actions.length > 0))
        return [{ code: 'no_plan', severity: 'error', message: `${node.id} has no plan with an action: its first step fails with nothing to do. Add a round with an action (Plans by round), or plan with an llm.`, nodeId: node.id, path: `nodes[${index}].config.plans` }];
      return [];
    },
    // The plan's actions run in an Act node, where an approval may grant them; the planner and the loop's tools, never.
    approvable: (reference) => reference.where.startsWith('config.plans'),
    // An Act node's check reads the longest plan of all.
    readByGraph: true,
  },
  collect: {
    // A cap that drops work says so before the run: the skills or plan actions past maxIter never run.
    check: (node, index) =>
      !node.config.loop && node.config.skills.length > node.config.maxIter
        ? [{ code: 'capped_work', severity: 'warning', message: `${node.id} lists ${node.config.skills.length} skills but runs at most maxIter ${node.config.maxIter} a visit: ${node.config.skills.slice(node.config.maxIter).join(', ')} never run.`, nodeId: node.id, path: `nodes[${index}].config.maxIter` }]
        : [],
  },
  act: {
    check: (node, index, longest) => {
      if (node.config.loop || node.config.skill) return [];
      return longest > node.config.maxIter
        ? [{ code: 'capped_work', severity: 'warning', message: `A plan has ${longest} actions but ${node.id} runs at most maxIter ${node.config.maxIter} a visit: the rest would not run.`, nodeId: node.id, path: `nodes[${index}].config.maxIter` }]
        : [];
    },
    // Approval grants the skill an Act node was refused: its own, its loop's tools, the plan's. Not its
    // loop's decider: a grant is for one call, and the decider is asked again every iteration, so a
    // visit after an approval is refused at its second iteration and the run would loop to max_steps.
    approvable: (reference) => reference.where !== 'config.loop.decider',
  },
  verify: {
    // Which reasons its evaluation can end with (recoveryRules.ts).
    readByGraph: true,
    check: (node, index) => [
      ...(node.config.verdictFrom === 'tool' && !node.config.loop?.tools.length
        ? [{ code: 'no_verdict_tool', severity: 'warning', message: `${node.id} takes its verdict from a tool (verdictFrom "tool") but has no inner loop with tools: ${node.config.loop ? 'no tool can answer, so the evidence is never sufficient' : 'without a loop it counts records, and verdictFrom does nothing'}.`, nodeId: node.id, path: `nodes[${index}].config.verdictFrom` } satisfies Problem]
        : []),
      // A kept verdict is the tool's (seed 003's tools alone set state.verified): the two settings cannot both hold.
      ...(node.config.loop?.verdict === 'state' && node.config.verdictFrom === 'decider'
        ? [{ code: 'loop_option', severity: 'warning', message: `${node.id} keeps its verdict in state (loop.verdict "state"), which is the tool's answer, but says verdictFrom "decider": the decider's words are ignored. Set verdictFrom to "tool", or the verdict to "visit".`, nodeId: node.id, path: `nodes[${index}].config.verdictFrom` } satisfies Problem]
        : []),
      ...(node.config.loop?.verdict === 'state' && node.config.verdictFrom !== 'tool' && !node.config.loop.tools.length
        ? [{ code: 'no_verdict_tool', severity: 'warning', message: `${node.id} keeps a tool's verdict in state (loop.verdict "state") but its loop has no tools: no tool can answer, so nothing is ever verified.`, nodeId: node.id, path: `nodes[${index}].config.loop.tools` } satisfies Problem]
        : []),
    ],
  },
  // A rule's skill runs in the next plan, as an Act node's action an approval may grant.
  recover: { approvable: () => true, readByGraph: true },
  approve: { grantsSkills: true },
};

/** The loop options only one kind reads (the loop's config is shared): anywhere else they would do nothing. */
const LOOP_OPTION_KIND = { verdict: 'verify', output: 'reason' } as const satisfies Record<string, NodeKind>;

/** A loop option set on a kind that does not read it: `loop.verdict` outside Verify, `loop.output` outside Reason. */
export const loopOptionProblems = (node: GraphNode, index: number): Problem[] => {
  const loop = 'loop' in node.config ? node.config.loop : undefined;
  if (!loop) return [];
  return Object.entries(LOOP_OPTION_KIND).flatMap(([option, kind]) =>
    loop[option as keyof typeof LOOP_OPTION_KIND] === undefined || node.kind === kind ? []
      : [{ code: 'loop_option', severity: 'warning', message: `${node.id} sets loop.${option}, which only a ${kind} node reads: on a ${node.kind} node it does nothing. Remove it.`, nodeId: node.id, path: `nodes[${index}].config.loop.${option}` } satisfies Problem]);
};
