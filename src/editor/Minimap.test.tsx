// @vitest-environment happy-dom
/**
 * A drag move redraws the dragged node alone in the minimap: it drew the dragged node's whole path
 * again (up to 64 nodes) on each move, script and drawing bare React Flow's drag has no part of
 * (issue 57, docs/performance.md).
 */
import { act } from 'react';
import { ReactFlowProvider, useStoreApi } from '@xyflow/react';
import { afterEach, expect, it, vi } from 'vitest';
import { parseGraph } from '../graph/parse.ts';
import { useApp } from '../store/index.ts';
import { mountForTest, unmountAfterEach } from '../ui/mountForTest.tsx';
import { useDragPreview } from './dragPreview.ts';
import { Minimap } from './Minimap.tsx';

unmountAfterEach();
// The minimap's size on screen, told when a test says, as a browser's ResizeObserver tells it (happy-dom lays nothing out).
let tell = () => undefined as void;
vi.stubGlobal('ResizeObserver', class {
  constructor(told: ResizeObserverCallback) {
    tell = () => told([{ contentRect: { width: 200, height: 88 } } as ResizeObserverEntry], this as unknown as ResizeObserver);
  }
  observe() {}
  disconnect() {}
});
afterEach(() => useDragPreview.setState({ positions: null }));

const parsed = parseGraph({
  format: 'loopscope/graph', version: 1, name: 'minimap', entry: 'n0',
  nodes: Array.from({ length: 10 }, (_, index) => ({ id: `n${index}`, kind: 'act', position: { x: index * 260, y: 0 } })),
  edges: [],
});
if (!parsed.ok) throw new Error('the test graph does not parse');

/** The minimap's node paths' drawings, and how many nodes each draws (a node is one closed subpath). */
const paths = (container: HTMLElement) => [...container.querySelectorAll('path.react-flow__minimap-node')].map((path) => path.getAttribute('d') ?? '');
const nodesIn = (d: string) => d.split('z').length - 1;

it('draws the dragged node alone on each move, the others as they were', () => {
  useApp.setState({ graph: parsed.value });
  const container = mountForTest(
    <ReactFlowProvider>
      <Minimap />
    </ReactFlowProvider>,
  );
  expect(paths(container).map(nodesIn)).toEqual([10]);
  act(() => useDragPreview.setState({ positions: new Map([['n3', { x: 790, y: 10 }]]) }));
  const first = paths(container);
  act(() => useDragPreview.setState({ positions: new Map([['n3', { x: 800, y: 20 }]]) }));
  const second = paths(container);
  const changed = second.filter((d, index) => d !== first[index]);
  expect(changed.map(nodesIn)).toEqual([1]);
  expect(second.map(nodesIn).reduce((sum, count) => sum + count, 0)).toBe(10);
});

/**
 * A pan moves the view's window on every frame. Drawn in one SVG with it, every node's path was
 * rasterized again each time (5–12 ms a pan frame at 10,000 nodes, in a profile; bare React Flow
 * has no minimap); drawn as an SVG mask, the mask was laid out and painted again with the page
 * around it: the window is a layer moved by its transform alone, and nothing else changes.
 */
it('a pan moves the view\'s window by its transform and changes nothing else of the minimap', () => {
  useApp.setState({ graph: parsed.value });
  let flow: ReturnType<typeof useStoreApi> | null = null;
  const Probe = () => {
    flow = useStoreApi();
    return null;
  };
  const container = mountForTest(
    <ReactFlowProvider>
      <Probe />
      <Minimap />
    </ReactFlowProvider>,
  );
  act(() => flow!.setState({ width: 800, height: 600, transform: [0, 0, 1] }));
  act(tell);
  const window = () => container.querySelector<HTMLElement>('.minimap-window')!;
  const before = { transform: window().style.transform, width: window().style.width, height: window().style.height };
  const changes: MutationRecord[] = [];
  const observer = new MutationObserver((records) => changes.push(...records));
  observer.observe(container, { subtree: true, attributes: true, childList: true, characterData: true });
  act(() => flow!.setState({ transform: [-20, -10, 1] }));
  changes.push(...observer.takeRecords());
  observer.disconnect();
  expect(window().style.transform).not.toBe(before.transform);
  expect({ width: window().style.width, height: window().style.height }).toEqual({ width: before.width, height: before.height });
  expect(changes.map((change) => [change.target, change.attributeName])).toEqual([[window(), 'style']]);
});
