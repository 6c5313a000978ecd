// @vitest-environment happy-dom
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { keptInput } from '../../runtime/serverEvents.ts';
import type { TraceStep } from '../../runtime/trace.ts';
import { mountForTest, unmountAfterEach } from '../../ui/mountForTest.tsx';
import { WhyRoute } from './ServerStepWhy.tsx';

unmountAfterEach();

describe("a router's input on a long thread", () => {
  it('says how much was left out, and shows the whole state from the step\'s own state on demand', () => {
    const state = { notes: Array.from({ length: 600 }, (_, index) => `note ${index} of a long thread`), topic: 'rain' };
    const kept = keptInput(state);
    const step = {
      step: 1, round: 1, node: 'plan', kind: 'langgraph', outcome: null, attempts: [], reads: [], writes: state, edges: [], fired: null, guard: null, durationMs: 0, stateBefore: {},
      server: { name: 'plan', checkpoint: 'c1', parentCheckpoint: null, next: ['act'], targets: ['act', '__end__'], chose: ['act'], conditional: true, routes: [{ input: kept.input, returned: 'act', leftOut: kept.leftOut }] },
    } as unknown as TraceStep;
    const view = mountForTest(<WhyRoute step={step} steps={[step]} graph="g" />);
    const given = view.querySelector('[aria-label="State given to the router after plan"]')?.textContent ?? '';
    const kb = Math.round(JSON.stringify(state.notes).length / 1024);
    expect(kb).toBeGreaterThan(15);
    expect(given).toContain(`"notes": "… (${kb} KB left out)"`);
    expect(given).toContain('"topic": "rain"');
    expect(view.textContent).toContain(`Channels longer than 512 characters are left out here, ${kb} KB in all: the step's state holds them.`);
    const show = [...view.querySelectorAll('button')].find((button) => button.textContent === 'Show the full state after step 1') as HTMLButtonElement;
    act(() => show.click());
    expect(view.querySelector('[aria-label="State after step 1"]')?.textContent).toContain('note 599 of a long thread');
  });
});
