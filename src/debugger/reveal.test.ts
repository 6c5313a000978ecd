import { describe, expect, it } from 'vitest';
import { FOLLOW_QUIET_MS, personHoldsView, viewRevealing } from './reveal.ts';

const pane = { width: 800, height: 300 };
const node = { x: 1000, y: 100, width: 200, height: 120 };

describe('viewRevealing: the selected step\'s node kept in view', () => {
  it('moves nothing while the node is wholly in view', () => {
    expect(viewRevealing(node, { x: -900, y: 0, zoom: 1 }, pane)).toBeNull();
  });

  it('centres the node along the side it overflows, keeping the zoom and the other side', () => {
    // Off to the right: x changes, y (the node fits vertically) stays.
    const moved = viewRevealing(node, { x: 0, y: 0, zoom: 1 }, pane)!;
    expect(moved).toEqual({ x: 800 / 2 - 1100, y: 0, zoom: 1 });
    const zoomed = viewRevealing(node, { x: 300, y: -200, zoom: 0.5 }, pane)!;
    expect(zoomed.zoom).toBe(0.5);
    expect(zoomed.x).toBeCloseTo(400 - 1100 * 0.5);
    expect(zoomed.y).toBeCloseTo(150 - 160 * 0.5);
  });

  it('counts a node touching the margin as out of view, and does nothing without a pane', () => {
    expect(viewRevealing({ x: 0, y: 0, width: 100, height: 100 }, { x: 10, y: 100, zoom: 1 }, pane)).not.toBeNull();
    expect(viewRevealing(node, { x: 0, y: 0, zoom: 1 }, { width: 0, height: 0 })).toBeNull();
  });
});

describe('personHoldsView: the view is not yanked from a person panning', () => {
  it('while they hold the canvas, and for a while after they let go', () => {
    expect(personHoldsView(10_000, null, true)).toBe(true);
    expect(personHoldsView(10_000, 10_000 - FOLLOW_QUIET_MS + 1, false)).toBe(true);
    expect(personHoldsView(10_000, 10_000 - FOLLOW_QUIET_MS, false)).toBe(false);
    expect(personHoldsView(10_000, null, false)).toBe(false);
  });
});
