// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { ReactFlowProvider } from '@xyflow/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { serializeGraph, type GraphFile, type When } from '../graph/index.ts';
import { validateGraph } from '../graph/validate.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { useApp } from '../store/index.ts';
import { getKey } from '../network/secrets.ts';
import { mountForTest, unmountAfterEach } from '../ui/mountForTest.tsx';
import { Inspector } from './Inspector.tsx';
import { ProblemsPanel } from './ProblemsPanel.tsx';

unmountAfterEach();

const mount = (element: React.ReactNode) => mountForTest(<ReactFlowProvider>{element}</ReactFlowProvider>);

const open = (graph: GraphFile, selection: { nodes?: string[]; edges?: string[] } = {}) => {
  useApp.setState({ graph, problems: validateGraph(graph), past: [], future: [], lastEditKey: null, selection: { nodes: selection.nodes ?? [], edges: selection.edges ?? [] } });
};

const template = () => findTemplate('securityclaw')!.graph();
const graph = () => useApp.getState().graph;
const node = (id: string) => graph().nodes.find((candidate) => candidate.id === id)!;
const edge = (id: string) => graph().edges.find((candidate) => candidate.id === id)!;

/** The form control a visible label names; with several, the nth. */
const field = (container: HTMLElement, label: string, nth = 0) => {
  const labels = [...container.querySelectorAll('label')].filter((element) => element.textContent?.trim() === label);
  const target = labels[nth];
  if (!target) throw new Error(`no field labelled "${label}"`);
  const control = target.htmlFor ? container.querySelector(`[id="${target.htmlFor}"]`) : target.querySelector('input');
  return control as HTMLInputElement & HTMLSelectElement & HTMLTextAreaElement;
};

const type = (control: HTMLInputElement | HTMLTextAreaElement, value: string) =>
  act(() => {
    const prototype = control instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(prototype, 'value')!.set!.call(control, value);
    control.dispatchEvent(new Event('input', { bubbles: true }));
  });
const choose = (control: HTMLSelectElement, value: string) =>
  act(() => {
    control.value = value;
    control.dispatchEvent(new Event('change', { bubbles: true }));
  });
const press = (control: HTMLElement, key: string) => act(() => control.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true })));
const click = (container: HTMLElement, name: string) => {
  const button = [...container.querySelectorAll('button')].find((candidate) => candidate.textContent?.trim() === name);
  if (!button) throw new Error(`no button "${name}"`);
  act(() => button.click());
};
const errorOf = (control: HTMLElement) => document.getElementById(control.getAttribute('aria-describedby') ?? '')?.textContent;

// A node's and an edge's forms load when one is first selected (the first screen has neither):
// loaded once here, they render at once in every test below.
beforeAll(async () => {
  for (const selection of [{ nodes: [template().nodes[0].id] }, { edges: [template().edges[0].id] }]) {
    open(template(), selection);
    const container = document.createElement('div');
    const root = createRoot(container);
    await act(async () => root.render(<ReactFlowProvider><Inspector /></ReactFlowProvider>));
    // Until the form's chunk has loaded: a condition, not a number of turns (a busy machine takes more).
    await vi.waitFor(
      async () => {
        await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
        expect(container.textContent).not.toContain('Loading…');
      },
      { timeout: 20_000, interval: 5 },
    );
    act(() => root.unmount());
  }
});

beforeEach(() => open(template()));

describe('node inspector', () => {
  it('renames a node with its edges and the entry; a taken or invalid id is shown and not applied', () => {
    open(template(), { nodes: ['decide'] });
    const container = mount(<Inspector />);
    const id = field(container, 'Id');

    type(id, 'execute');
    press(id, 'Enter');
    expect(id.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(id)).toBe('"execute" is taken');
    type(id, '1st');
    press(id, 'Enter');
    expect(errorOf(id)).toMatch(/starting with a letter/);
    expect(graph().entry).toBe('decide');

    type(id, 'plan_next');
    press(id, 'Enter');
    expect(graph().entry).toBe('plan_next');
    expect(graph().nodes.some((candidate) => candidate.id === 'decide')).toBe(false);
    expect(graph().edges.filter((candidate) => candidate.source === 'plan_next' || candidate.target === 'plan_next').length).toBe(
      template().edges.filter((candidate) => candidate.source === 'decide' || candidate.target === 'decide').length,
    );
    expect(useApp.getState().selection.nodes).toEqual(['plan_next']);
  });

  it('applies a valid number, shows a bad one inline and leaves the graph as it was', () => {
    open(template(), { nodes: ['execute'] });
    const container = mount(<Inspector />);
    const attempts = field(container, 'Max attempts');

    type(attempts, '4');
    expect(node('execute').config).toMatchObject({ retry: { maxAttempts: 4 } });
    const before = graph();

    type(attempts, '0');
    expect(attempts.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(attempts)).toBe('retry.maxAttempts: must be at least 1');
    type(attempts, '2.5');
    expect(errorOf(attempts)).toMatch(/^retry\.maxAttempts: /);
    type(attempts, 'lots');
    expect(errorOf(attempts)).toBe('"lots" is not a number');
    expect(graph()).toBe(before);

    type(attempts, '6');
    expect(attempts.getAttribute('aria-invalid')).toBeNull();
    expect(node('execute').config).toMatchObject({ retry: { maxAttempts: 6 } });
  });

  it('typing in one field undoes as one step', () => {
    open(template(), { nodes: ['execute'] });
    const container = mount(<Inspector />);
    const label = field(container, 'Label');
    for (const text of ['R', 'Ru', 'Run']) type(label, text);
    expect(node('execute').label).toBe('Run');
    act(() => useApp.getState().undo());
    expect(node('execute').label).toBe(template().nodes.find((candidate) => candidate.id === 'execute')!.label);
    expect(label.value).toBe(node('execute').label);
  });

  it('refuses JSON that does not parse or does not fit the schema, with the path', () => {
    open(template(), { nodes: ['recover'] });
    const container = mount(<Inspector />);
    const before = graph();
    const rules = field(container, 'Rules (JSON)');
    type(rules, '[{"reason": ');
    expect(errorOf(rules)).toMatch(/^not JSON/);
    type(rules, '[{"reason": "timeout"}]');
    expect(errorOf(rules)).toMatch(/^rules\[0\]\.action: /);
    expect(graph()).toBe(before);
  });

  it('sets the entry from the node', () => {
    open(template(), { nodes: ['execute'] });
    const container = mount(<Inspector />);
    click(container, 'Set as entry');
    expect(graph().entry).toBe('execute');
    expect(container.textContent).toContain('This node is the entry');
  });

  it('makes a respond node the final response on every stop, and takes it back', () => {
    open(template(), { nodes: ['final'] });
    const container = mount(<Inspector />);
    const box = field(container, 'Final response on every stop (finally)');
    expect(box.checked).toBe(true);
    act(() => box.click());
    expect(graph().finally).toBeUndefined();
    act(() => box.click());
    expect(graph().finally).toBe('final');
  });

  it('edits a node\'s inner loop as JSON, checked against the kind\'s schema', () => {
    open(template(), { nodes: ['execute'] });
    const container = mount(<Inspector />);
    const loop = field(container, 'Inner loop (JSON)');
    type(loop, '{"tools": ["search_events"]}');
    expect(errorOf(loop)).toMatch(/decider/);
    expect((node('execute').config as { loop?: unknown }).loop).toBeUndefined();
    type(loop, '{"decider": "fallback_lookup", "tools": ["search_events"], "maxIter": 2}');
    expect((node('execute').config as { loop?: unknown }).loop).toEqual({ decider: 'fallback_lookup', tools: ['search_events'], maxIter: 2 });
  });

  it('edits the loop options each kind reads (issue 54, items 7-9); one without a loop says what is missing', () => {
    open(findTemplate('graph-engineer')!.graph(), { nodes: ['run'] });
    let container = mount(<Inspector />);
    const failure = field(container, 'Loop: a failed tool');
    expect(failure.value).toBe('observe');
    choose(failure, 'end');
    expect((node('run').config as { loop: { onToolFailure?: string } }).loop.onToolFailure).toBe('end');
    expect(() => field(container, 'Loop: verdict kept')).toThrow();
    open(graph(), { nodes: ['check'] });
    container = mount(<Inspector />);
    expect(field(container, 'Loop: verdict kept').value).toBe('state');
    open(graph(), { nodes: ['think'] });
    container = mount(<Inspector />);
    choose(field(container, 'Loop: done output'), 'plan');
    expect((node('think').config as { loop: { output?: string } }).loop.output).toBe('plan');
    open(template(), { nodes: ['execute'] });
    container = mount(<Inspector />);
    const without = field(container, 'Loop: a failed tool');
    choose(without, 'observe');
    expect(without.closest('.field')?.querySelector('.field-error')?.textContent).toMatch(/decider/);
    expect((node('execute').config as { loop?: unknown }).loop).toBeUndefined();
  });
});

describe('recover rule editor', () => {
  it('edits, adds and removes rules', () => {
    open(template(), { nodes: ['recover'] });
    const container = mount(<Inspector />);
    const rulesOf = () => (node('recover').config as { rules: { reason: string; action: string; skill?: string; estTokens?: number }[] }).rules;
    const count = rulesOf().length;

    choose(field(container, 'When the reason is', 0), 'otherwise');
    expect(rulesOf()[0].reason).toBe('otherwise');
    choose(field(container, 'Switch to skill', 0), '');
    expect(rulesOf()[0].skill).toBeUndefined();
    type(field(container, 'Estimated tokens', 0), '-3');
    expect(rulesOf()[0].estTokens).not.toBe(-3);
    type(field(container, 'Recovery action', 0), 'ask_a_person');
    expect(rulesOf()[0].action).toBe('ask_a_person');

    click(container, 'Add rule');
    expect(rulesOf()).toHaveLength(count + 1);
    click(container, 'Remove rule 1');
    expect(rulesOf()).toHaveLength(count);
    expect(rulesOf()[0].action).not.toBe('ask_a_person');
  });
});

describe('plans editor', () => {
  it('changes an action’s skill and arguments and adds a round', () => {
    open(template(), { nodes: ['decide'] });
    const container = mount(<Inspector />);
    const plans = () => (node('decide').config as { plans: { actions: { skill: string; args: Record<string, unknown> }[] }[] }).plans;
    const rounds = plans().length;
    choose(field(container, '1st action’s skill', 0), 'fallback_lookup');
    expect(plans()[0].actions[0].skill).toBe('fallback_lookup');
    type(field(container, 'Arguments (JSON)', 0), '{"q": "10.0.0.9"}');
    expect(plans()[0].actions[0].args).toEqual({ q: '10.0.0.9' });
    // What was typed stays as typed rather than being reformatted under the cursor.
    expect(field(container, 'Arguments (JSON)', 0).value).toBe('{"q": "10.0.0.9"}');
    click(container, 'Add round');
    expect(plans()).toHaveLength(rounds + 1);
  });

  it('offers New skill… in an action’s skill picker: the skill is defined and picked in one edit, one Undo takes both back', () => {
    open(template(), { nodes: ['decide'] });
    const container = mount(<Inspector />);
    const plans = () => (node('decide').config as { plans: { actions: { skill: string }[] }[] }).plans;
    choose(field(container, '1st action’s skill', 0), ' new');
    const form = container.querySelector<HTMLElement>('[aria-label="New skill"]')!;
    type(field(form, 'Skill name'), 'search_wider');
    type(field(form, 'Records (JSON)'), '[{"ip": "10.0.0.5"}]');
    click(form, 'Create skill');
    expect(graph().skills.search_wider).toEqual({ type: 'mock', access: 'read', script: [{ outcome: 'ok', records: [{ ip: '10.0.0.5' }] }] });
    expect(plans()[0].actions[0].skill).toBe('search_wider');
    expect(container.querySelector('[aria-label="New skill"]')).toBeNull();
    act(() => useApp.getState().undo());
    expect(Object.hasOwn(graph().skills, 'search_wider')).toBe(false);
    expect(plans()[0].actions[0].skill).toBe('search_events');
  });

  it('says why a new skill is refused, and keeps the form', () => {
    open(template(), { nodes: ['decide'] });
    const container = mount(<Inspector />);
    choose(field(container, '1st action’s skill', 0), ' new');
    const form = container.querySelector<HTMLElement>('[aria-label="New skill"]')!;
    type(field(form, 'Skill name'), 'search_events');
    click(form, 'Create skill');
    expect(form.querySelector('[role="alert"]')?.textContent).toBe('Name: "search_events" is taken');
    choose(field(form, 'Skill type'), 'http');
    type(field(form, 'Skill name'), 'lookup');
    type(field(form, 'URL'), '');
    click(form, 'Create skill');
    expect(form.querySelector('[role="alert"]')?.textContent).toContain('url');
    expect(Object.hasOwn(graph().skills, 'lookup')).toBe(false);
  });

  it('never inserts a skill that does not exist: with none, Add round adds an empty round and Add action asks for a new skill', () => {
    const bare = template();
    bare.skills = {};
    bare.nodes = bare.nodes.map((candidate) => (candidate.id === 'decide' ? { ...candidate, config: { ...candidate.config, plans: [] } } as typeof candidate : candidate));
    open(bare, { nodes: ['decide'] });
    const container = mount(<Inspector />);
    const plans = () => (node('decide').config as { plans: { actions: { skill: string }[] }[] }).plans;
    click(container, 'Add round');
    expect(plans()).toEqual([{ actions: [] }]);
    click(container, 'Add action');
    const form = container.querySelector<HTMLElement>('[aria-label="New skill"]')!;
    click(form, 'Create skill');
    expect(Object.keys(graph().skills)).toEqual(['skill_1']);
    expect(plans()).toEqual([{ actions: [{ skill: 'skill_1', args: {} }] }]);
  });
});

describe('condition editor', () => {
  const whenOf = () => edge('e3').when;

  it('produces every when form', () => {
    open(template(), { edges: ['e3'] });
    const container = mount(<Inspector />);
    const form = () => field(container, 'Fires when');

    choose(form(), 'otherwise');
    expect(whenOf()).toBe('otherwise');
    choose(form(), 'always');
    expect(whenOf()).toBeUndefined();
    expect(Object.hasOwn(edge('e3'), 'when')).toBe(false);

    choose(form(), 'outcome');
    expect(whenOf()).toEqual({ outcome: 'sufficient' });
    choose(field(container, 'Outcome'), 'exhausted');
    expect(whenOf()).toEqual({ outcome: 'exhausted' });

    choose(form(), 'field');
    type(field(container, 'Field path'), 'evaluation.reason');
    choose(field(container, 'Operator'), 'eq');
    type(field(container, 'Value'), 'timeout');
    expect(whenOf()).toEqual({ path: 'evaluation.reason', op: 'eq', value: 'timeout' });
    type(field(container, 'Value'), '3');
    expect(whenOf()).toEqual({ path: 'evaluation.reason', op: 'eq', value: 3 });
    choose(field(container, 'Operator'), 'exists');
    expect(whenOf()).toEqual({ path: 'evaluation.reason', op: 'exists' });

    choose(form(), 'not');
    expect(whenOf()).toEqual({ not: { path: 'evaluation.reason', op: 'exists' } });

    choose(form(), 'any');
    expect(whenOf()).toEqual({ any: [{ not: { path: 'evaluation.reason', op: 'exists' } }] });
    choose(form(), 'always');
    choose(form(), 'all');
    expect(whenOf()).toEqual({ all: ['always'] });
    click(container, 'Add condition');
    choose(field(container, 'Condition', 1), 'outcome');
    expect(whenOf()).toEqual({ all: ['always', { outcome: 'sufficient' }] });
    choose(field(container, 'Condition', 0), 'any');
    expect(whenOf()).toEqual({ all: [{ any: ['always'] }, { outcome: 'sufficient' }] });
    click(container, 'Remove condition 2');
    expect(whenOf()).toEqual({ all: [{ any: ['always'] }] });
  });

  it('shows a bad path or a bad list inline and keeps the condition', () => {
    open(template(), { edges: ['e4'] });
    const container = mount(<Inspector />);
    const before: When | undefined = edge('e4').when;
    const path = field(container, 'Field path');
    type(path, 'evaluation..x');
    expect(path.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(path)).toMatch(/field names joined by dots/);
    choose(field(container, 'Operator'), 'in');
    type(field(container, 'Value'), 'timeout');
    expect(errorOf(field(container, 'Value'))).toMatch(/in needs a list/);
    expect(edge('e4').when).toEqual({ ...(before as object), op: 'in', value: [true] });
  });

  it('moves an edge among its siblings and says where it is tried', () => {
    open(template(), { edges: ['e3'] });
    const container = mount(<Inspector />);
    expect(container.textContent).toContain('Tried 1st of 4');
    click(container, 'Try later');
    expect(container.textContent).toContain('Tried 2nd of 4');
    expect(graph().edges.filter((candidate) => candidate.source === 'evaluate').map((candidate) => candidate.id)).toEqual(['e4', 'e3', 'e5', 'e11']);
  });
});

describe('graph settings and skills', () => {
  it('edits limits, where empty means unlimited, and refuses bad initial state', () => {
    const container = mount(<Inspector />);
    type(field(container, 'Token budget'), '');
    expect(graph().limits.tokenBudget).toBeUndefined();
    type(field(container, 'Max rounds'), '0');
    expect(graph().limits.maxRounds).toBe(template().limits.maxRounds);
    const state = field(container, 'Initial state (JSON)');
    type(state, '[1, 2]');
    expect(errorOf(state)).toMatch(/^state: /);
    expect(graph().state).toEqual(template().state);
    type(state, '{"question": "x", "__proto__": {"polluted": true}}');
    expect(errorOf(state)).toBe('__proto__: the key "__proto__" is not allowed anywhere in a file');
    expect(graph().state).toEqual(template().state);
  });

  it('sets what a spent budget does: evaluate, or empty for stop (the default)', () => {
    const container = mount(<Inspector />);
    const onBudget = field(container, 'When the budget is spent');
    choose(onBudget, 'evaluate');
    expect(graph().limits.onBudget).toBe('evaluate');
    choose(onBudget, '');
    expect(graph().limits.onBudget).toBeUndefined();
  });

  it('renames a skill, warns before deleting one in use, and keeps an API key out of the graph', () => {
    const container = mount(<Inspector />);
    const first = Object.keys(template().skills)[0];
    type(field(container, 'Skill name', 0), 'events');
    press(field(container, 'Skill name', 0), 'Enter');
    expect(Object.keys(graph().skills)[0]).toBe('events');

    click(container, 'Delete skill events');
    expect(container.querySelector('[role="alert"]')?.textContent).toMatch(/events is used by/);
    expect(graph().skills.events).toBeDefined();
    click(container, 'Delete anyway');
    expect(graph().skills.events).toBeUndefined();
    expect(first).not.toBe('events');

    click(container, 'Add skill');
    const added = Object.keys(graph().skills).at(-1)!;
    choose(field(container, 'Type', Object.keys(graph().skills).length - 1), 'llm');
    expect(graph().skills[added].type).toBe('llm');
    type(field(container, 'API key name'), 'OPENAI_API_KEY');
    type(field(container, 'API key'), 'sk-test-secret');
    expect(getKey('OPENAI_API_KEY', 'http://localhost:11434')).toBe('sk-test-secret');
    expect(container.textContent).toContain('Sent only to http://localhost:11434.');

    // Pointed at another origin, the skill does not have the key: the field asks again.
    const baseUrl = field(container, 'Base URL');
    type(baseUrl, 'https://elsewhere.example/v1');
    expect((field(container, 'API key') as HTMLInputElement).value).toBe('');
    expect(container.textContent).toContain('The key OPENAI_API_KEY was given for http://localhost:11434, not for this origin');
    expect(serializeGraph(graph())).not.toContain('sk-test-secret');
  });
});

describe('a mock skill’s script as a form (issue 53, #8)', () => {
  const skillItem = (container: HTMLElement, name: string) => container.querySelector<HTMLElement>(`[data-part="skill:${name}"]`)!;
  const script = (name: string) => (graph().skills[name] as { script: Record<string, unknown>[] }).script;
  const pressButton = (container: HTMLElement, name: string) => act(() => container.querySelector<HTMLButtonElement>(`button[aria-label="${name}"]`)!.click());
  const outcomes = (item: HTMLElement) => [...item.querySelectorAll('label')].filter((label) => label.textContent === 'Outcome').map((label) => (item.querySelector(`[id="${label.htmlFor}"]`) as HTMLSelectElement).value);

  it('a row per call with its outcome from the list; the last row repeats; rows added, moved and removed, each its own Undo', () => {
    const container = mount(<Inspector />);
    const item = skillItem(container, 'search_events');
    expect(outcomes(item)).toEqual(['timeout', 'empty']);
    expect(item.textContent).toContain('Call 2 and every call after it');
    expect(item.textContent).toContain('The last row repeats for every call after it.');
    // A failure has an error message and no records; ok has records.
    expect(field(item, 'Error message').value).toBe('SIEM did not answer within 5s');
    expect([...item.querySelectorAll('label')].filter((label) => label.textContent === 'Records (JSON)')).toHaveLength(0);

    pressButton(item, 'Move call 2 up');
    expect(script('search_events').map((entry) => entry.outcome)).toEqual(['empty', 'timeout']);
    expect(outcomes(skillItem(container, 'search_events'))).toEqual(['empty', 'timeout']);
    click(skillItem(container, 'search_events'), 'Add call');
    expect(script('search_events')).toHaveLength(3);
    expect(script('search_events')[2]).toEqual({ outcome: 'ok', records: [{}] });
    type(field(skillItem(container, 'search_events'), 'Records (JSON)'), '[{"ip": "10.0.0.5"}]');
    expect(script('search_events')[2].records).toEqual([{ ip: '10.0.0.5' }]);
    pressButton(skillItem(container, 'search_events'), 'Remove call 1');
    expect(script('search_events').map((entry) => entry.outcome)).toEqual(['timeout', 'ok']);
    // Each of them through the history: Undo takes them back one at a time.
    act(() => useApp.getState().undo());
    expect(script('search_events')).toHaveLength(3);
    act(() => useApp.getState().undo());
    expect(script('search_events')[2].records).toEqual([{}]);
    act(() => useApp.getState().undo());
    act(() => useApp.getState().undo());
    expect(script('search_events')).toEqual((template().skills.search_events as { script: unknown[] }).script);
    expect(outcomes(skillItem(container, 'search_events'))).toEqual(['timeout', 'empty']);
  });

  it('the JSON is an advanced view kept in step both ways; JSON that does not read says where and keeps the text', () => {
    const container = mount(<Inspector />);
    const json = () => field(skillItem(container, 'search_events'), 'Script (JSON)');
    type(json(), '[{"outcome": "permission_denied", "error": "no"}, {"outcome": "ok", "records": [{"id": 1}]}]');
    expect(script('search_events')).toEqual([{ outcome: 'permission_denied', error: 'no' }, { outcome: 'ok', records: [{ id: 1 }] }]);
    expect(outcomes(skillItem(container, 'search_events'))).toEqual(['permission_denied', 'ok']);

    const bad = '[{"outcome": "ok",}]';
    type(json(), bad);
    expect(errorOf(json())).toMatch(/^not JSON: .*(position|line)/);
    expect(json().value).toBe(bad);
    expect(script('search_events')[0].outcome).toBe('permission_denied');
    type(json(), '[{"outcome": "maybe"}]');
    expect(errorOf(json())).toMatch(/^script\[0\]\.outcome: expected "ok"/);
    expect(script('search_events')[0].outcome).toBe('permission_denied');

    // The form's edit shows in the JSON.
    choose(field(skillItem(container, 'search_events'), 'Outcome', 0), 'timeout');
    expect(JSON.parse(json().value)[0]).toEqual({ outcome: 'timeout', error: 'no' });
  });

  it('a judge’s skill scripts the reply too; a skill read as records does not ask for one', () => {
    const judged = template();
    judged.nodes = judged.nodes.map((candidate) => (candidate.id === 'evaluate' ? { ...candidate, config: { ...candidate.config, judge: 'fallback_lookup' } } as typeof candidate : candidate));
    open(judged);
    const container = mount(<Inspector />);
    expect(() => field(skillItem(container, 'search_events'), 'Reply (what the model answered)')).toThrow();
    type(field(skillItem(container, 'fallback_lookup'), 'Reply (what the model answered)'), '{"verdict": "sufficient"}');
    expect(script('fallback_lookup')[0].reply).toEqual({ verdict: 'sufficient' });
  });

  it('a new skill’s script is the same form', () => {
    open(template(), { nodes: ['decide'] });
    const container = mount(<Inspector />);
    choose(field(container, '1st action’s skill', 0), ' new');
    const form = container.querySelector<HTMLElement>('[aria-label="New skill"]')!;
    type(field(form, 'Skill name'), 'search_wider');
    choose(field(form, 'Outcome'), 'timeout');
    click(form, 'Add call');
    expect(outcomes(form)).toEqual(['timeout', 'ok']);
    expect(form.querySelector('summary')?.textContent).toBe('Script: timeout, then ok (1 record) from call 2 on');
    click(form, 'Create skill');
    expect(graph().skills.search_wider).toEqual({ type: 'mock', access: 'read', script: [{ outcome: 'timeout' }, { outcome: 'ok', records: [{}] }] });
  });
});

describe('problems panel', () => {
  it('lists problems with a count and selects the node of a clicked one', () => {
    const broken = template();
    open({ ...broken, edges: broken.edges.filter((candidate) => candidate.id !== 'e7') });
    const container = mount(<ProblemsPanel />);
    const heading = container.querySelector('h2')!;
    const count = useApp.getState().problems!.length;
    expect(count).toBeGreaterThan(0);
    expect(heading.textContent).toBe(`Problems (${count})`);
    const problem = [...container.querySelectorAll('button')].find((button) => button.textContent?.includes('unrouted_outcome'))!;
    expect(problem.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe('warning');
    act(() => problem.click());
    expect(useApp.getState().selection).toEqual({ nodes: ['recover'], edges: [] });
  });
});
