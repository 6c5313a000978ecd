import { describe, expect, it } from 'vitest';
import { viewportInRoom } from './viewportInRoom.ts';

/** Where `bounds` lands on screen under `view`. */
const onScreen = (bounds: { x: number; y: number; width: number; height: number }, view: { x: number; y: number; zoom: number }) => ({
  left: view.x + bounds.x * view.zoom,
  top: view.y + bounds.y * view.zoom,
  right: view.x + (bounds.x + bounds.width) * view.zoom,
  bottom: view.y + (bounds.y + bounds.height) * view.zoom,
});
const whole = { margin: { x: 20, y: 10 }, minZoom: () => 0.1, maxZoom: 2 };

describe('viewportInRoom', () => {
  it('shows the bounds whole and centred in the room, its margins kept', () => {
    const bounds = { x: 50, y: 40, width: 1000, height: 300 };
    const room = { x: 0, y: 100, width: 800, height: 500 };
    const shown = onScreen(bounds, viewportInRoom(bounds, room, whole));
    expect(shown.left).toBeCloseTo(20);
    expect(shown.right).toBeCloseTo(780);
    expect((shown.top + shown.bottom) / 2).toBeCloseTo(100 + 250);
  });

  it('stops at the largest zoom, centred', () => {
    const bounds = { x: 0, y: 0, width: 100, height: 50 };
    const view = viewportInRoom(bounds, { width: 800, height: 500 }, whole);
    expect(view.zoom).toBe(2);
    const shown = onScreen(bounds, view);
    expect((shown.left + shown.right) / 2).toBeCloseTo(400);
  });

  it('at a smallest zoom the bounds do not fit, shows them from their left and top', () => {
    const bounds = { x: 300, y: 200, width: 5000, height: 3000 };
    const view = viewportInRoom(bounds, { x: 40, y: 0, width: 800, height: 500 }, { ...whole, minZoom: () => 0.5 });
    expect(view.zoom).toBe(0.5);
    const shown = onScreen(bounds, view);
    expect(shown.left).toBeCloseTo(40 + 20);
    expect(shown.top).toBeCloseTo(10);
  });
});
