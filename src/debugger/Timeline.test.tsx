// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Trace, TraceStep } from '../runtime/trace.ts';
import { useApp } from '../store/index.ts';
import { loadRuntime } from '../store/runSlice.ts';
import { loadTimelineRun, Timeline } from './Timeline.tsx';
import { ROUNDS_PAGE, ROW_HEIGHT } from './TimelineRun.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const syntheticTrace = (count: number): Trace => ({
  format: 'loopscope/trace', version: 1, graph: 'SecurityClaw triage', seed: 1, stopReason: 'max_steps', rounds: Math.ceil(count / 4), tokensUsed: 0, finalState: {},
  steps: Array.from({ length: count }, (_, index): TraceStep => ({
    step: index + 1, round: Math.floor(index / 4) + 1, node: 'execute', kind: 'act', outcome: 'ok',
    attempts: index % 4 === 1 ? [{ n: 1, skill: 'search_events', outcome: 'timeout', tokens: 1 }, { n: 2, skill: 'search_events', outcome: 'ok', tokens: 1 }] : [],
    reads: [], writes: {}, edges: [], fired: { id: 'e2', target: 'evaluate', reason: 'always' }, guard: null, durationMs: 0,
    ...(index === 8 ? { blindRetry: true } : {}),
  })),
});

/** Mounts the timeline and waits for its run view, which loads on first use. */
const mount = async () => {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  await act(async () => root.render(<Timeline />));
  return { container, unmount: () => act(() => root.unmount()) };
};

const items = (container: HTMLElement) => container.querySelectorAll('[role="list"][aria-label="Timeline"] [role="listitem"]');

// The store loads the runtime lazily when a step is shown; loaded through the store first, that
// import settles at once instead of after the test file has ended (on a loaded machine it took
// longer than the tests).
beforeAll(() => loadRuntime());

afterEach(() => {
  act(() => useApp.getState().reset());
  document.body.innerHTML = '';
});

describe('Timeline', () => {
  it('shows every step of a short run as a list item, attempts nested in theirs, rounds and blind retries marked', async () => {
    act(() => useApp.getState().loadTrace(syntheticTrace(12)));
    const { container, unmount } = await mount();
    expect(items(container)).toHaveLength(12);
    expect(items(container)[1].querySelector('[role="group"]')?.textContent).toContain('timeout');
    expect(container.textContent).toContain('Round 3');
    expect(container.textContent).toContain('blind retry');
    expect(container.textContent).toContain('Stopped: max_steps');
    unmount();
  });

  it('draws an imported trace in the timeline a frame before the step\'s marks on the canvas', async () => {
    // As in the app by then: the run view has loaded while the first screen was idle.
    await loadTimelineRun();
    const { container, unmount } = await mount();
    act(() => useApp.getState().loadTrace(syntheticTrace(12)));
    // The frame that shows the timeline has it alone: the canvas has not changed yet (issue 57).
    expect(items(container)).toHaveLength(12);
    expect(container.querySelector('[aria-current="step"]')?.getAttribute('data-step')).toBe('12');
    expect(useApp.getState().overlay).toBeNull();
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    await act(async () => {
      await frame();
      await frame();
    });
    expect(useApp.getState().overlay?.currentNode).toBe('execute');
    unmount();
  });

  it('renders a window of a 10,000-step run and moves it on scroll', async () => {
    act(() => useApp.getState().loadTrace(syntheticTrace(10_000)));
    act(() => useApp.getState().selectStep(1));
    const { container, unmount } = await mount();
    const rendered = items(container);
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.length).toBeLessThan(100);
    expect(rendered[0].getAttribute('aria-setsize')).toBe('10000');

    const scroller = container.querySelector('.timeline-scroll') as HTMLElement;
    act(() => {
      scroller.scrollTop = 5000 * ROW_HEIGHT;
      scroller.dispatchEvent(new Event('scroll'));
    });
    const steps = [...items(container)].map((item) => Number(item.getAttribute('data-step')));
    // 5,000 rows down, past round headers and attempt rows: about step 2,860.
    expect(Math.min(...steps)).toBeGreaterThan(2800);
    expect(Math.max(...steps)).toBeLessThan(2900);
    expect(steps.length).toBeLessThan(100);

    // End from a focused row: the window moves to the last step, and the focus goes with it.
    const focused = items(container)[0] as HTMLElement;
    act(() => focused.focus());
    act(() => {
      focused.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    });
    expect(document.activeElement?.getAttribute('data-step')).toBe('10000');
    unmount();
  });

  it('draws a run shown while it is open around its selected step at once, never its first rows', async () => {
    act(() => useApp.getState().loadTrace(syntheticTrace(12)));
    const { container, unmount } = await mount();
    const drawn = new Set<string>();
    const observer = new MutationObserver((records) => {
      for (const record of records)
        for (const added of record.addedNodes)
          if (added instanceof Element) for (const item of [added, ...added.querySelectorAll('[data-step]')]) if (item.hasAttribute('data-step')) drawn.add(item.getAttribute('data-step')!);
    });
    observer.observe(container, { childList: true, subtree: true });
    // An imported trace selects its last step: the list opens at its end.
    act(() => useApp.getState().loadTrace(syntheticTrace(10_000)));
    await Promise.resolve();
    observer.disconnect();
    expect(container.querySelector('[data-step="10000"]')?.getAttribute('aria-current')).toBe('step');
    expect(drawn.has('10000')).toBe(true);
    expect(Math.min(...[...drawn].map(Number))).toBeGreaterThan(9000);
    unmount();
  });

  it.each([10_000, 100_000])('keeps a %i-step run under 500 DOM elements, the rounds overview included', async (count) => {
    act(() => useApp.getState().loadTrace(syntheticTrace(count)));
    const { container, unmount } = await mount();
    expect(items(container).length).toBeGreaterThan(0);
    expect(container.querySelectorAll('*').length).toBeLessThan(500);
    // Moving the selection keeps the window small: the selected step is rendered, wherever it is.
    act(() => useApp.getState().selectStep(count / 2));
    expect(container.querySelector(`[data-step="${count / 2}"]`)?.getAttribute('aria-current')).toBe('step');
    expect(container.querySelectorAll('*').length).toBeLessThan(500);
    // The rounds overview, open, lists a page of rounds: the one holding the selected step.
    const overview = container.querySelector('details.rounds-overview') as HTMLDetailsElement;
    act(() => {
      overview.open = true;
      overview.dispatchEvent(new Event('toggle'));
    });
    expect(overview.querySelectorAll('tbody tr')).toHaveLength(ROUNDS_PAGE);
    expect(overview.querySelector(`[aria-label="Go to round ${count / 8}"]`)).not.toBeNull();
    expect(container.querySelectorAll('*').length).toBeLessThan(1000);
    unmount();
  });

  it('arrow keys, Home and End move the selection between steps', async () => {
    act(() => useApp.getState().loadTrace(syntheticTrace(12)));
    act(() => useApp.getState().selectStep(5));
    const { container, unmount } = await mount();
    const list = container.querySelector('[role="list"]') as HTMLElement;
    const press = (key: string) => act(() => {
      list.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    });
    press('ArrowDown');
    expect(useApp.getState().selectedStep).toBe(6);
    press('ArrowUp');
    press('ArrowUp');
    expect(useApp.getState().selectedStep).toBe(4);
    press('End');
    expect(useApp.getState().selectedStep).toBe(12);
    press('Home');
    expect(useApp.getState().selectedStep).toBe(1);
    expect(container.querySelector('[aria-current="step"]')?.getAttribute('data-step')).toBe('1');
    unmount();
  });
});
