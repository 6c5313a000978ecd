// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { updateEdge } from '../graph/index.ts';
import { saveScenario } from '../graph/scenarioOps.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { useApp } from '../store/index.ts';
import { ScenariosPanel } from './ScenariosPanel.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const app = () => useApp.getState();
let container: HTMLElement;
let unmount = () => {};

beforeEach(() => {
  act(() => {
    app().reset();
    useApp.setState({ scenarioResults: new Map(), scenarioSources: new Map(), comparison: null });
    const graph = findTemplate('securityclaw')!.graph();
    app().load({ ...graph, scenarios: graph.scenarios.slice(0, 2) });
  });
  container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  act(() => root.render(<ScenariosPanel />));
  unmount = () => act(() => root.unmount());
});

afterEach(() => {
  unmount();
  container.remove();
});

const items = () => [...container.querySelectorAll('[aria-label="Scenario list"] > li')].map((item) => item.querySelector('.scenario-status')?.textContent);
const buttonNamed = (name: string) => [...container.querySelectorAll('button')].find((button) => button.textContent === name) as HTMLButtonElement | undefined;

// Scenarios are whole runs through LangGraph, loaded on first use: room for a loaded machine.
describe('ScenariosPanel', { timeout: 30_000 }, () => {
  it('lists the scenarios as not run; Save as scenario and Compare runs wait for runs', () => {
    expect(container.querySelector('section')?.getAttribute('aria-label')).toBe('Scenarios');
    expect(items()).toEqual(['not run', 'not run']);
    expect(buttonNamed('Save as scenario')?.disabled).toBe(true);
    expect(buttonNamed('Compare runs')?.disabled).toBe(true);
  });

  it('shows pass and fail; a failure says where the run parts and offers to open it there', async () => {
    await act(() => app().runScenarios());
    expect(items()).toEqual(['passed', 'passed']);
    expect(container.textContent).toContain('2 passed, 0 failed');

    act(() => app().edit((graph) => updateEdge(graph, 'e4', (edge) => ({ ...edge, when: { path: 'evaluation.plan_exhausted', op: 'eq', value: false } }))));
    expect(container.textContent).toContain('(graph edited since)');
    await act(() => app().runScenarios());
    expect(items()).toEqual(['failed at step 3', 'passed']);
    // The cause first (where the paths part, the edge each took), then expected against actual.
    expect(container.querySelector('.scenario-cause')?.textContent).toBe('parts at step 3: Evaluate took e5 (exhausted), the scenario went on to Recover (by e4 (plan_exhausted = false) or e11 (continue))');
    expect(container.querySelector('.scenario-failures')?.textContent).toContain('path: expected ["decide","execute","evaluate","recover"');
    await act(async () => buttonNamed('Open at step 3')?.click());
    expect(app().selectedStep).toBe(3);
  });

  it('a scenario that cannot run says why', async () => {
    act(() => app().edit((graph) => saveScenario(graph, { name: 'broken', skills: { search_events: { script: [{ outcome: 'maybe' }] } }, expect: {} })));
    await act(() => app().runScenarios(['broken']));
    expect(items().at(-1)).toBe('cannot run');
    expect(container.textContent).toContain('scenario "broken": skills.search_events.script[0].outcome');
  });
});
