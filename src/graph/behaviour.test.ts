import { describe, expect, it } from 'vitest';
import { sameBehaviour } from './behaviour.ts';
import { renameNode, updateNode } from './inspectorOps.ts';
import { moveNodes, updateEdge } from './ops.ts';
import { saveScenario } from './scenarioOps.ts';
import type { GraphFile, GraphNode } from './schema.ts';
import { findTemplate } from './templates/index.ts';

const securityclaw = (): GraphFile => findTemplate('securityclaw')!.graph();

describe('sameBehaviour: whether a run made on one version holds for another', () => {
  it('holds after edits a run does not read: a move, a label, the name, a scenario', () => {
    const graph = securityclaw();
    const moved = moveNodes(graph, new Map([['decide', { x: 400, y: 300 }]]));
    const relabelled = updateNode(moved, 'execute', (node) => ({ ...node, label: 'Run the plan' }));
    const named = { ...relabelled, name: 'Another name', edges: relabelled.edges.map((edge) => (edge.id === 'e1' ? { ...edge, label: 'go' } : edge)) };
    const withScenario = saveScenario(named, { name: 'pinned', expect: { stopReason: 'completed' } });
    expect(sameBehaviour(graph, withScenario)).toBe(true);
    // A copy, as a reload reads it back, is the same too.
    expect(sameBehaviour(graph, structuredClone(graph))).toBe(true);
  });

  it('does not hold once a condition, a config, the wiring, a skill, a limit or the entry changes', () => {
    const graph = securityclaw();
    const edgeWithCondition = graph.edges.find((edge) => typeof edge.when === 'object')!;
    expect(sameBehaviour(graph, updateEdge(graph, edgeWithCondition.id, (edge) => ({ ...edge, when: 'otherwise' })))).toBe(false);
    expect(sameBehaviour(graph, updateEdge(graph, 'e1', (edge) => ({ ...edge, target: 'answer' })))).toBe(false);
    expect(sameBehaviour(graph, updateNode(graph, 'evaluate', (node) => ({ ...node, config: { ...node.config, minRecords: 5 } }) as GraphNode))).toBe(false);
    expect(sameBehaviour(graph, { ...graph, limits: { ...graph.limits, maxRounds: 2 } })).toBe(false);
    expect(sameBehaviour(graph, { ...graph, skills: {} })).toBe(false);
    expect(sameBehaviour(graph, { ...graph, edges: [...graph.edges].reverse() })).toBe(false);
    expect(sameBehaviour(graph, renameNode(graph, 'decide', 'plan_it'))).toBe(false);
  });
});
