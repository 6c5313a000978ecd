import { describe, expect, it } from 'vitest';
import type { GraphFile } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { initialState } from './state.ts';
import { answeredInAdvance, approvalWaited } from './approvalWaited.ts';

const gate = (): GraphFile => findTemplate('approval-gate')!.graph();
/** The gate's state with its numbers as a run two steps in has them. */
const at = (graph: GraphFile, numbers: Record<string, number> = {}) => ({ ...initialState(graph), round: 1, steps: 2, tokensUsed: 0, ...numbers });

describe('approvalWaited: which node a run stands before waits for a person', () => {
  it('is the node that asks a person, in the one question of both executors', () => {
    const graph = gate();
    expect(approvalWaited(graph, { next: ['ask'], state: at(graph) })).toMatchObject({ node: 'ask', prompt: 'Open a ticket in the incident tracker (needs write access)?' });
  });

  it('is none before a node that asks nobody, or with no next node', () => {
    const graph = gate();
    expect(approvalWaited(graph, { next: ['apply'], state: at(graph) })).toBeNull();
    expect(approvalWaited(graph, { next: [], state: at(graph) })).toBeNull();
  });

  it('finds the node that asks among several next ones (a server thread\'s `next`)', () => {
    const graph = gate();
    expect(approvalWaited(graph, { next: ['done', 'ask'], state: at(graph) })?.node).toBe('ask');
  });

  it('is none once its answer is given: just answered, or answered in advance for this visit', () => {
    const graph = gate();
    expect(approvalWaited(graph, { next: ['ask'], state: at(graph), answered: ['ask'] })).toBeNull();
    const scripted: GraphFile = { ...graph, nodes: graph.nodes.map((node) => (node.id === 'ask' ? ({ ...node, config: { ...node.config, answers: ['approved'] } } as typeof node) : node)) };
    expect(answeredInAdvance(scripted.nodes.find((node) => node.id === 'ask'), {})).toBe(true);
    expect(approvalWaited(scripted, { next: ['ask'], state: at(scripted), visits: {} })).toBeNull();
    // The second visit has no answer given in advance: it asks.
    expect(approvalWaited(scripted, { next: ['ask'], state: at(scripted), visits: { ask: 1 } })?.node).toBe('ask');
    // Without the ledger (a server's thread), nothing is known to be answered in advance.
    expect(approvalWaited(scripted, { next: ['ask'], state: at(scripted) })?.node).toBe('ask');
  });

  it('asks nobody in a headless run', () => {
    const graph = gate();
    expect(approvalWaited(graph, { next: ['ask'], state: at(graph), headless: true })).toBeNull();
  });

  it('asks nobody when a guard stops the run before the node: its answer would change nothing', () => {
    const graph = gate();
    expect(approvalWaited(graph, { next: ['ask'], state: at(graph, { steps: graph.limits.maxSteps }) })).toBeNull();
    expect(approvalWaited(graph, { next: ['ask'], state: at(graph, { round: graph.limits.maxRounds + 1 }) })).toBeNull();
    expect(approvalWaited(graph, { next: ['ask'], state: at(graph, { tokensUsed: graph.limits.tokenBudget! }) })).toBeNull();
  });
});
