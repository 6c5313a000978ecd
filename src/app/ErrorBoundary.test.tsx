// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validateGraph } from '../graph/validate.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { useApp } from '../store/index.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let cleanup = () => {};
afterEach(() => cleanup());

/** Draws the graph's name, and throws while the name says so: a stand-in for any drawing bug. */
function Fragile() {
  const name = useApp((state) => state.graph.name);
  if (name === 'breaks the page') throw new Error('Cannot read properties of undefined (reading \'join\')');
  return <p>{name}</p>;
}

const mount = () => {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  act(() => root.render(<ErrorBoundary><Fragile /></ErrorBoundary>));
  cleanup = () => {
    act(() => root.unmount());
    container.remove();
  };
  return container;
};

const button = (container: HTMLElement, name: string) => [...container.querySelectorAll('button')].find((candidate) => candidate.textContent === name);

describe('ErrorBoundary', () => {
  it('keeps the graph, says what failed, and offers export and undo instead of a blank page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const graph = findTemplate('securityclaw')!.graph();
    useApp.setState({ graph, problems: validateGraph(graph), past: [], future: [] });
    const container = mount();
    expect(container.textContent).toBe('SecurityClaw triage');

    await act(async () => {
      useApp.getState().edit((current) => ({ ...current, name: 'breaks the page' }));
      await import('./CrashPage.tsx');
    });
    expect(container.querySelector('[role="alert"] h1')?.textContent).toBe('Loopscope could not draw this graph');
    expect(container.textContent).toContain("reading 'join'");
    expect(useApp.getState().graph.name).toBe('breaks the page');
    expect(button(container, 'Export JSON')).toBeDefined();

    act(() => button(container, 'Undo')!.click());
    expect(container.textContent).toBe('SecurityClaw triage');
    vi.restoreAllMocks();
  });
});
