import { describe, expect, it } from 'vitest';
import { blankGraph } from '../graph/index.ts';
import { centredOn, panPastEdge } from './canvasEdits.ts';

describe('centredOn', () => {
  const graph = blankGraph();
  const room = { x: 0, y: 0, width: 800, height: 500 };

  it('centres a new node on the point', () => {
    const box = centredOn(graph, 'stop', { x: 400, y: 250 }, room);
    expect(box.x + box.width / 2).toBe(400);
    expect(Math.abs(box.y + box.height / 2 - 250)).toBeLessThanOrEqual(0.5);
  });

  it('near an edge of the room, moves it just enough to be whole inside', () => {
    const box = centredOn(graph, 'act', { x: 795, y: 495 }, room);
    expect(box.x + box.width).toBe(800);
    expect(box.y + box.height).toBe(500);
    const corner = centredOn(graph, 'act', { x: 3, y: 2 }, room);
    expect([corner.x, corner.y]).toEqual([0, 0]);
  });

  it('in a room smaller than the node, keeps its top left in view', () => {
    const box = centredOn(graph, 'act', { x: 50, y: 50 }, { x: 10, y: 20, width: 60, height: 60 });
    expect([box.x, box.y]).toEqual([10, 20]);
  });
});

describe('panPastEdge', () => {
  const canvas = { x: 200, y: 100, width: 800, height: 500 };

  it('holds the view still while the pointer is anywhere inside the canvas, its edges too', () => {
    for (const pointer of [{ x: 201, y: 101 }, { x: 999, y: 599 }, { x: 210, y: 590 }, { x: 200, y: 600 }]) expect(panPastEdge(pointer, canvas)).toEqual({ x: 0, y: 0 });
  });

  it('past an edge, pans towards it, faster the further past, up to a full speed', () => {
    const left = panPastEdge({ x: 190, y: 300 }, canvas);
    expect(left.y).toBe(0);
    expect(left.x).toBeGreaterThan(0);
    expect(panPastEdge({ x: 150, y: 300 }, canvas).x).toBeGreaterThan(left.x);
    expect(panPastEdge({ x: 100, y: 300 }, canvas)).toEqual(panPastEdge({ x: 0, y: 300 }, canvas));
    const belowRight = panPastEdge({ x: 1100, y: 700 }, canvas);
    expect(belowRight.x).toBeLessThan(0);
    expect(belowRight.y).toBeLessThan(0);
    expect(panPastEdge({ x: 500, y: 90 }, canvas).y).toBeGreaterThan(0);
  });
});
