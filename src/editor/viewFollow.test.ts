import { describe, expect, it } from 'vitest';
import { FIT_MARGIN, MIN_FIT_ZOOM } from './fit.ts';
import { inView, panToGrowth, refitted } from './viewFollow.ts';

/** The canvas at 1280×720, beside the palette and the inspector and above the timeline. */
const ROOM = { x: 0, y: 0, width: 874, height: 470 };
const AT_ONE = { x: 0, y: 0, zoom: 1 };

describe('the view following what an edit draws', () => {
  it('counts a drawing inside the room as in view, and one a loop reaches under the timeline from as not', () => {
    expect(inView({ x: 20, y: 20, width: 800, height: 400 }, AT_ONE, ROOM)).toBe(true);
    expect(inView({ x: 20, y: 20, width: 800, height: 520 }, AT_ONE, ROOM)).toBe(false);
    expect(inView({ x: -40, y: 20, width: 800, height: 400 }, AT_ONE, ROOM)).toBe(false);
  });

  it('pans a view the person moved just enough, at their zoom, to show the side that grew, and only that side', () => {
    const before = { x: 20, y: 20, width: 800, height: 300 };
    // A loop-back drawn under the nodes: the drawing grew down, past the room's foot. It is brought
    // in with the fit's margin, narrowed to what the room leaves (it is 460 px tall of 470).
    const low = { ...before, y: 100 };
    const down = panToGrowth(low, { ...low, height: 420 }, AT_ONE, ROOM)!;
    expect(down).toEqual({ x: 0, y: ROOM.height - FIT_MARGIN - 520, zoom: 1 });
    const tall = { ...low, height: 460 };
    expect(inView(tall, panToGrowth(low, tall, AT_ONE, ROOM)!, ROOM)).toBe(true);
    // The left side was out of view already and did not grow: it stays where the person put it.
    expect(panToGrowth({ ...low, x: -300 }, { ...low, x: -300, height: 420 }, AT_ONE, ROOM)!.x).toBe(0);
    // Nothing grew: nothing moves, even with part of the drawing out of view.
    expect(panToGrowth({ ...before, x: -300 }, { ...before, x: -300 }, AT_ONE, ROOM)).toBeNull();
  });

  it('fits a fitted view whole again where that is readable, else keeps its text readable and shows what grew', () => {
    const grown = { x: 0, y: 0, width: 1000, height: 500 };
    const whole = refitted({ x: 0, y: 0, width: 800, height: 300 }, grown, AT_ONE, ROOM)!;
    expect(whole.zoom).toBeGreaterThanOrEqual(MIN_FIT_ZOOM);
    expect(inView(grown, whole, ROOM)).toBe(true);
    // Too big to show whole readable: the readable zoom, the grown foot in view.
    const tall = { x: 0, y: 0, width: 800, height: 900 };
    const kept = refitted({ x: 0, y: 0, width: 800, height: 400 }, tall, AT_ONE, ROOM)!;
    expect(kept.zoom).toBe(MIN_FIT_ZOOM);
    expect(900 * kept.zoom + kept.y).toBeLessThanOrEqual(ROOM.height);
    // A view the person had zoomed out further (a whole-graph Fit View) is not zoomed in.
    expect(refitted({ x: 0, y: 0, width: 2000, height: 400 }, { x: 0, y: 0, width: 4000, height: 1400 }, { x: 0, y: 0, zoom: 0.3 }, ROOM)!.zoom).toBeLessThanOrEqual(0.3);
  });
});
