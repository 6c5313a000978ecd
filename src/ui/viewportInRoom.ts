import type { Viewport } from '@xyflow/react';

/** A box on a canvas: a graph's bounds in flow pixels, or the room of the canvas a fit may use (freeRoom.ts) in screen pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RoomFit {
  /** Kept free round the bounds on each side, in screen pixels. */
  margin: { x: number; y: number };
  /** The smallest zoom, given the one that would show the bounds whole. */
  minZoom: (whole: number) => number;
  maxZoom: number;
}

/**
 * The view that shows `bounds` in `room` of a canvas (the part nothing covers, or all of it) with a
 * margin: centred where it fits at the zoom chosen, else from its left and top. Both canvases fit
 * with it: the editor's (editor/fit.ts) and a server's LangGraph graph (debugger/server/ServerCanvas.tsx).
 */
export const viewportInRoom = (bounds: Box, room: Partial<Box> & { width: number; height: number }, { margin, minZoom, maxZoom }: RoomFit): Viewport => {
  const { x: roomX = 0, y: roomY = 0 } = room;
  const space = { width: Math.max(1, room.width - 2 * margin.x), height: Math.max(1, room.height - 2 * margin.y) };
  const whole = Math.min(space.width / bounds.width, space.height / bounds.height);
  const zoom = Math.min(maxZoom, Math.max(minZoom(whole), whole));
  const across = (length: number, free: number, start: number, edge: number) =>
    length * zoom <= free ? edge + (free - length * zoom) / 2 - start * zoom : edge - start * zoom;
  return { x: roomX + across(bounds.width, space.width, bounds.x, margin.x), y: roomY + across(bounds.height, space.height, bounds.y, margin.y), zoom };
};
