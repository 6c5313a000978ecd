import { beforeAll, describe, expect, it } from 'vitest';
import { gridGraph, readGenerated } from '../../bench/graphs.ts';
import { moveNodes } from '../graph/index.ts';
import { edgeLayout, edgeLayoutInSlices, loadLabelPlacement } from './flowAdapter.ts';
import { finish, finishInSlices, type Pausable } from '../ui/pausable.ts';

// Labels are placed once their placement has loaded, as on the canvas after its first commit.
beforeAll(() => loadLabelPlacement());

function* counted(parts: number, log: string[]): Pausable<number> {
  for (let part = 1; part <= parts; part += 1) {
    log.push(`part ${part}`);
    yield;
  }
  return parts;
}

describe('pausable work', () => {
  it('finish does it all at once', () => {
    const log: string[] = [];
    expect(finish(counted(3, log))).toBe(3);
    expect(log).toEqual(['part 1', 'part 2', 'part 3']);
  });

  it('finishInSlices lets the page take its turn between slices', async () => {
    const log: string[] = [];
    const ticking = setInterval(() => log.push('turn'), 0);
    // Slices of no time: a turn after every part.
    const result = await finishInSlices(counted(3, log), 0);
    clearInterval(ticking);
    expect(result).toBe(3);
    expect(log.filter((entry) => entry !== 'turn')).toEqual(['part 1', 'part 2', 'part 3']);
    expect(log.indexOf('turn')).toBeGreaterThan(log.indexOf('part 1'));
    expect(log.indexOf('turn')).toBeLessThan(log.indexOf('part 3'));
  });

  it('the edge layout placed in slices is the one placed at once, and is kept for edgeLayout', async () => {
    const graph = readGenerated(gridGraph(1500, 2250));
    const moved = moveNodes(graph, new Map([[graph.nodes[40].id, { x: graph.nodes[40].position.x + 90, y: graph.nodes[40].position.y + 300 }]]));
    const atOnce = edgeLayout(moved);
    edgeLayout(graph);
    const sliced = await edgeLayoutInSlices(moved, null);
    expect(sliced).not.toBe(atOnce);
    expect(sliced).toEqual(atOnce);
    expect(edgeLayout(moved)).toBe(sliced);
  });
});
