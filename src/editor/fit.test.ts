import { beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATES } from '../graph/templates/index.ts';
import { edgeLayout, loadLabelPlacement } from './flowAdapter.ts';
import { FIT_MARGIN, graphBounds, MIN_FIT_MARGIN, MIN_FIT_ZOOM, MIN_WHOLE_FIT_ZOOM, viewportFor } from './fit.ts';
import { freeRoom } from '../ui/freeRoom.ts';
import { ABOVE_NODE, CANVAS_TEXT, nodeRect, type Rect } from './geometry.ts';

// Labels are placed once their placement has loaded, as on the canvas after its first commit.
beforeAll(() => loadLabelPlacement());

/** The canvas at 1280×720, beside the palette and the inspector and above the timeline. */
const LAPTOP = { width: 874, height: 470 };

const shown = (bounds: Rect, size: { width: number; height: number }, view: { x: number; y: number; zoom: number }) => ({
  left: bounds.x * view.zoom + view.x,
  top: bounds.y * view.zoom + view.y,
  right: (bounds.x + bounds.width) * view.zoom + view.x,
  bottom: (bounds.y + bounds.height) * view.zoom + view.y,
  size,
});

describe('viewportFor', () => {
  it('opens a graph whole with every text readable where it can, whole with readable titles where it cannot, else readable from its left', () => {
    const fits = viewportFor({ x: 0, y: 0, width: 900, height: 400 }, LAPTOP);
    expect(fits.zoom).toBeGreaterThanOrEqual(MIN_FIT_ZOOM);
    const titles = viewportFor({ x: 0, y: 0, width: 1150, height: 400 }, LAPTOP);
    expect(titles.zoom).toBeLessThan(MIN_FIT_ZOOM);
    expect(titles.zoom * CANVAS_TEXT.title).toBeGreaterThanOrEqual(10);
    expect(shown({ x: 0, y: 0, width: 1150, height: 400 }, LAPTOP, titles).right).toBeLessThanOrEqual(LAPTOP.width - FIT_MARGIN + 0.01);
    const big = viewportFor({ x: 100, y: 50, width: 3000, height: 400 }, LAPTOP);
    expect(big.zoom * CANVAS_TEXT.body).toBeGreaterThanOrEqual(10);
    expect(shown({ x: 100, y: 50, width: 3000, height: 400 }, LAPTOP, big).left).toBeCloseTo(FIT_MARGIN);
    expect(MIN_WHOLE_FIT_ZOOM * CANVAS_TEXT.title).toBeGreaterThanOrEqual(10);
  });

  it('shows the whole graph with its margin for Fit View, however small, in the room left free', () => {
    const bounds = { x: -40, y: -30, width: 3000, height: 1200 };
    const room = { x: 0, y: 60, width: 874, height: 410 };
    const view = viewportFor(bounds, room, 'whole');
    const box = shown(bounds, LAPTOP, view);
    expect(box.left).toBeGreaterThanOrEqual(FIT_MARGIN - 0.01);
    expect(box.top).toBeGreaterThanOrEqual(room.y + FIT_MARGIN - 0.01);
    expect(box.right).toBeLessThanOrEqual(LAPTOP.width - FIT_MARGIN + 0.01);
    expect(box.bottom).toBeLessThanOrEqual(room.y + room.height - FIT_MARGIN + 0.01);
  });
});

describe('the fit\'s margin', () => {
  it('narrows, before the zoom draws the text under 10 px, for a graph a little too big for its canvas; a graph too big either way keeps it', () => {
    // Graph Engineer after Auto layout: 577 px tall, 470 - 2 × 24 px of room held it at 9.5 px.
    const bounds = { x: 0, y: 0, width: 1000, height: 577 };
    for (const mode of ['readable', 'whole'] as const) {
      const view = viewportFor(bounds, LAPTOP, mode);
      expect(view.zoom * CANVAS_TEXT.body, mode).toBeGreaterThanOrEqual(10);
      const box = shown(bounds, LAPTOP, view);
      expect(Math.min(box.left, box.top), mode).toBeGreaterThanOrEqual(MIN_FIT_MARGIN - 0.01);
      expect(box.bottom, mode).toBeLessThanOrEqual(LAPTOP.height - MIN_FIT_MARGIN + 0.01);
      expect(box.right, mode).toBeLessThanOrEqual(LAPTOP.width - MIN_FIT_MARGIN + 0.01);
    }
    const big = { x: 0, y: 0, width: 3000, height: 1200 };
    expect(shown(big, LAPTOP, viewportFor(big, LAPTOP, 'whole')).left).toBeCloseTo(FIT_MARGIN);
  });
});

describe('graphBounds', () => {
  it('holds every node with the room above it, every loop and every label of the templates', () => {
    for (const template of TEMPLATES) {
      const graph = template.graph();
      if (graph.nodes.length === 0) continue;
      const layout = edgeLayout(graph);
      const bounds = graphBounds(graph, layout)!;
      const within = (rect: Rect) => rect.x >= bounds.x && rect.y >= bounds.y && rect.x + rect.width <= bounds.x + bounds.width && rect.y + rect.height <= bounds.y + bounds.height;
      for (const node of graph.nodes) {
        const rect = nodeRect(node, graph.skills);
        expect(within({ ...rect, y: rect.y - ABOVE_NODE, height: rect.height + ABOVE_NODE }), node.id).toBe(true);
      }
      expect(layout.labelExtent && within(layout.labelExtent)).toBe(true);
      for (const level of layout.loops.values()) expect(level).toBeLessThan(bounds.y + bounds.height);
    }
  });

  it('fits each template whole on a 1280×720 laptop with every text at 10 px or more', () => {
    for (const template of TEMPLATES) {
      const graph = template.graph();
      if (graph.nodes.length === 0) continue;
      const bounds = graphBounds(graph, edgeLayout(graph))!;
      const view = viewportFor(bounds, LAPTOP);
      expect(view.zoom * CANVAS_TEXT.body, template.id).toBeGreaterThanOrEqual(10);
      // Whole: a graph too big for that opens readable from its left, which this is not.
      const box = shown(bounds, LAPTOP, view);
      expect(Math.min(box.left, box.top), template.id).toBeGreaterThanOrEqual(FIT_MARGIN - 0.01);
      expect(box.right, template.id).toBeLessThanOrEqual(LAPTOP.width - FIT_MARGIN + 0.01);
      expect(box.bottom, template.id).toBeLessThanOrEqual(LAPTOP.height - FIT_MARGIN + 0.01);
    }
  });
});

describe('freeRoom', () => {
  const element = (rect: Partial<DOMRect>) => ({ getBoundingClientRect: () => ({ left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0, ...rect }) }) as Element;
  const canvasWith = (covers: Element[]) =>
    ({ ...element({ left: 100, top: 40, right: 974, bottom: 510, width: 874, height: 470 }), ownerDocument: { querySelectorAll: () => covers } }) as unknown as Element;

  it('gives the canvas whole when nothing covers it, and takes from it the side a cover stands on', () => {
    expect(freeRoom(canvasWith([]), LAPTOP)).toEqual({ x: 0, y: 0, width: 874, height: 470 });
    // A prompt at the top right, 460 wide and 160 tall: the top loses least.
    expect(freeRoom(canvasWith([element({ left: 500, top: 60, right: 960, bottom: 220, width: 460, height: 160 })]), LAPTOP)).toEqual({ x: 0, y: 180, width: 874, height: 290 });
    // The LangGraph server panel at a laptop's top right, short (just connected): a strip under it would squeeze the graph, the right loses less.
    expect(freeRoom(canvasWith([element({ left: 604, top: 22, right: 1244, bottom: 376, width: 640, height: 354 })]), LAPTOP)).toEqual({ x: 0, y: 0, width: 504, height: 470 });
    // A panel down the right side.
    expect(freeRoom(canvasWith([element({ left: 800, top: 0, right: 1000, bottom: 720, width: 200, height: 720 })]), LAPTOP)).toEqual({ x: 0, y: 0, width: 700, height: 470 });
    // Beside the canvas: nothing taken.
    expect(freeRoom(canvasWith([element({ left: 980, top: 0, right: 1280, bottom: 720, width: 300, height: 720 })]), LAPTOP)).toEqual({ x: 0, y: 0, width: 874, height: 470 });
  });
});
