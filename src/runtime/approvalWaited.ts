/**
 * Which node a run stands before waits for a person: decided here once for both executors. The
 * page's run stands before its one next node and knows its ledger (an answer written, the answers
 * a node's config gives in advance, a headless run); a server's thread stands before its `next`
 * (mapped back to node ids) and knows only the node just answered from here: what it does not know
 * it passes as none.
 */
import { kindDefinition, nodeById, own, type AskedConfig, type GraphFile, type GraphNode } from '../graph/index.ts';
import type { PendingApproval } from './controller.ts';
import { checkGuards } from './guards.ts';
import { scriptedAnswer } from './kinds/approve.ts';
import { approvalAt } from './session.ts';

/** Where a run stands, as far as an approval goes. */
export interface StandingBefore {
  /** The nodes the run stands before, by id. */
  next: readonly string[];
  /** The agent state there: the guards read its numbers, and the question names the action refused in it. */
  state: Readonly<Record<string, unknown>>;
  /** Nodes whose answer for this visit is given (a decision in the ledger, the node just answered): the run goes on past them. */
  answered?: readonly string[];
  /** How many times each node ran (the ledger's `visits`), for the answers a node's config gives in advance; none: nobody answered in advance. */
  visits?: Readonly<Record<string, number>>;
  /** A headless run asks nobody. */
  headless?: boolean;
}

/** `node` asks a person (`interruptsBefore`), and its config answered this visit in advance (`answers`, a scenario's decisions). */
export const answeredInAdvance = (node: GraphNode | undefined, visits: Readonly<Record<string, number>>): boolean =>
  node !== undefined && kindDefinition(node.kind).interruptsBefore === true && scriptedAnswer(node.config as AskedConfig, own(visits, node.id) ?? 0) !== undefined;

/**
 * The approval the run waits on: a node it stands before asks a person and nobody answered it yet,
 * unless a guard stops the run first (the question's answer would change nothing: the node does not run).
 */
export const approvalWaited = (graph: GraphFile, { next, state, answered = [], visits, headless = false }: StandingBefore): PendingApproval | null => {
  if (headless) return null;
  const node = next
    .filter((id) => !answered.includes(id))
    .map((id) => nodeById(graph, id))
    .find((candidate) => candidate !== undefined && kindDefinition(candidate.kind).interruptsBefore === true && !(visits && answeredInAdvance(candidate, visits)));
  if (!node) return null;
  const guards = checkGuards({ round: state.round as number, steps: state.steps as number, tokensUsed: state.tokensUsed as number, limits: graph.limits });
  return guards.stop ? null : approvalAt(graph, node.id, state);
};
