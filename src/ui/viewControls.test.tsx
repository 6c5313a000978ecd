// @vitest-environment happy-dom
/**
 * The zoom and fit buttons are drawn here rather than by React Flow's `Controls` (viewControls.tsx):
 * they must keep what `Controls` gave, since journeys and people find them by it: their names, classes
 * and icons, zoom in off at the largest zoom, and each zoom taking the view (fitRequest.ts).
 */
import { act } from 'react';
import { ReactFlow, ReactFlowProvider, useStoreApi } from '@xyflow/react';
import { describe, expect, it, vi } from 'vitest';
import { onViewTaken } from './fitRequest.ts';
import { mountForTest, unmountAfterEach } from './mountForTest.tsx';
import { ZoomAndFit } from './viewControls.tsx';

unmountAfterEach();

type Store = ReturnType<typeof useStoreApi>;

const mount = (onFit = () => {}) => {
  let store: Store | null = null;
  function Probe() {
    store = useStoreApi();
    return null;
  }
  const container = mountForTest(
    <ReactFlowProvider>
      <Probe />
      <div style={{ width: 800, height: 600 }}>
        <ReactFlow nodes={[]} edges={[]} minZoom={0.1} maxZoom={2} />
      </div>
      <ZoomAndFit onFit={onFit} />
    </ReactFlowProvider>,
  );
  const button = (name: string) => container.querySelector<HTMLButtonElement>(`button[aria-label="${name}"]`)!;
  return { container, store: store!, button };
};

describe('ZoomAndFit', () => {
  it("draws React Flow's controls: a horizontal panel of zoom in, zoom out and Fit View", () => {
    const { container, button } = mount();
    const panel = container.querySelector('[aria-label="Zoom and fit"]')!;
    expect(panel.className.split(' ')).toEqual(expect.arrayContaining(['react-flow__panel', 'react-flow__controls', 'horizontal', 'bottom', 'left']));
    expect([...panel.querySelectorAll('button')].map((shown) => shown.getAttribute('aria-label'))).toEqual(['Zoom In', 'Zoom Out', 'Fit View']);
    expect(button('Zoom In').className).toBe('react-flow__controls-button react-flow__controls-zoomin');
    expect(button('Zoom Out').className).toBe('react-flow__controls-button react-flow__controls-zoomout');
    expect(button('Zoom In').title).toBe('Zoom In');
    for (const name of ['Zoom In', 'Zoom Out', 'Fit View']) expect(button(name).querySelector('svg')).not.toBeNull();
  });

  it('turns zoom in off at the largest zoom and zoom out at the smallest', () => {
    const { store, button } = mount();
    act(() => store.setState({ transform: [0, 0, 2] }));
    expect([button('Zoom In').disabled, button('Zoom Out').disabled]).toEqual([true, false]);
    act(() => store.setState({ transform: [0, 0, 0.1] }));
    expect([button('Zoom In').disabled, button('Zoom Out').disabled]).toEqual([false, true]);
  });

  it('zooms the canvas and takes the view; Fit View asks its caller', () => {
    const onFit = vi.fn();
    const { store, button } = mount(onFit);
    const taken = vi.fn();
    const stop = onViewTaken(taken);
    const zoomBy = vi.spyOn(store.getState().panZoom!, 'scaleBy');
    act(() => button('Zoom In').click());
    act(() => button('Zoom Out').click());
    expect(zoomBy.mock.calls.map(([factor]) => factor)).toEqual([1.2, 1 / 1.2]);
    expect(taken).toHaveBeenCalledTimes(2);
    act(() => button('Fit View').click());
    expect(onFit).toHaveBeenCalledTimes(1);
    expect(taken).toHaveBeenCalledTimes(2);
    stop();
  });
});
