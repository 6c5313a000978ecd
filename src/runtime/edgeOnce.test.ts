import { describe, expect, it, vi } from 'vitest';
import { findTemplate } from '../graph/templates/index.ts';
import type { GraphFile } from '../graph/index.ts';
import { createController } from './run.ts';

// Counts the edge choices a run makes, through conditions.ts's own export.
const choices = vi.hoisted(() => ({ count: 0 }));
vi.mock('./conditions.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('./conditions.ts')>();
  return {
    ...original,
    chooseEdge: (...args: Parameters<typeof original.chooseEdge>) => {
      choices.count += 1;
      return original.chooseEdge(...args);
    },
  };
});

describe('an edge is chosen once per step', () => {
  it('routes each node by the choice its step recorded, without trying the conditions again', async () => {
    const graph = (findTemplate('securityclaw') as { graph: () => GraphFile }).graph();
    const controller = createController(graph, { headless: true, compact: true });
    choices.count = 0;
    await controller.run();
    const steps = controller.trace.steps;
    // Every step that ran its node and was not stopped chose an edge, once; the route LangGraph took is that edge.
    const chose = steps.filter((step) => step.edges.length > 0).length;
    expect(chose).toBeGreaterThan(3);
    expect(choices.count).toBe(chose);
    for (const [index, step] of steps.slice(0, -1).entries()) if (step.fired) expect(steps[index + 1].node).toBe(step.fired.target);
  });
});
