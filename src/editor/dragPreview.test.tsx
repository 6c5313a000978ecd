// @vitest-environment happy-dom
/**
 * A drag move publishes the dragged nodes' places for the minimap. Rendered through a store hook
 * (useSyncExternalStore), that update is React's sync lane, which takes every pending update with
 * it, the canvas's own move included, and renders them inside the pointer event: under load the
 * 200-node drag read 1.33–5× bare React Flow's frame p95 (issue 57, docs/performance.md).
 */
import { createRoot } from 'react-dom/client';
import { afterEach, expect, it } from 'vitest';
import { useDraggedPositions, useDragPreview } from './dragPreview.ts';

const tasksLater = () => new Promise((resolve) => setTimeout(resolve, 0));
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

it('renders a drag move in React’s task after the pointer event, not inside it', async () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  const seen: (number | undefined)[] = [];
  function Probe() {
    seen.push(useDraggedPositions()?.get('a')?.x);
    return null;
  }
  const container = document.createElement('div');
  const root = createRoot(container);
  cleanups.push(() => root.unmount());
  root.render(<Probe />);
  while (seen.length === 0) await tasksLater();
  // Subscribed in an effect after the first render.
  await tasksLater();

  let renderedDuringEvent = -1;
  const move = (x: number) => () => useDragPreview.setState({ positions: new Map([['a', { x, y: 0 }]]) });
  const onMove = move(1);
  window.addEventListener('mousemove', onMove);
  cleanups.push(() => window.removeEventListener('mousemove', onMove));
  window.dispatchEvent(new MouseEvent('mousemove'));
  // What runs before the next task: the event and its microtasks, where a sync-lane render goes.
  await Promise.resolve();
  await Promise.resolve();
  renderedDuringEvent = seen.filter((x) => x === 1).length;
  while (!seen.includes(1)) await tasksLater();

  expect(renderedDuringEvent).toBe(0);
  expect(seen.at(-1)).toBe(1);
  useDragPreview.setState({ positions: null });
});
