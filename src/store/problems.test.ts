import { afterEach, describe, expect, it, vi } from 'vitest';
import { moveNodes, removeEdges } from '../graph/index.ts';
import { updateNode } from '../graph/inspectorOps.ts';
import * as validateModule from '../graph/validate.ts';
import { validateGraph } from '../graph/validate.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { useApp } from './index.ts';
import { onlyPositionsChanged, problemsAfter } from './problems.ts';

// The store calls the check through the module it loaded (problems.ts), this very namespace.
const validateSpy = vi.spyOn(validateModule, 'checkGraph');

const securityclaw = () => findTemplate('securityclaw')!.graph();
const initial = useApp.getState();
afterEach(() => {
  useApp.setState(initial, true);
  validateSpy.mockClear();
});

describe('onlyPositionsChanged', () => {
  it('is true for a move and false for any other edit', () => {
    const graph = securityclaw();
    expect(onlyPositionsChanged(graph, moveNodes(graph, new Map([['decide', { x: 5, y: 5 }]])))).toBe(true);
    expect(onlyPositionsChanged(graph, removeEdges(graph, ['e1']))).toBe(false);
    expect(onlyPositionsChanged(graph, updateNode(graph, 'decide', (node) => ({ ...node, label: 'Decide again' })))).toBe(false);
    expect(onlyPositionsChanged(graph, { ...graph, entry: 'execute' })).toBe(false);
    expect(onlyPositionsChanged(graph, { ...graph, nodes: graph.nodes.slice(1) })).toBe(false);
    expect(onlyPositionsChanged(graph, { ...graph, nodes: [...graph.nodes].reverse() })).toBe(false);
  });
});

describe('problemsAfter', () => {
  it('keeps the same problems for a move and revalidates any other edit', () => {
    const graph = securityclaw();
    const problems = validateGraph(graph);
    expect(problemsAfter(graph, problems, moveNodes(graph, new Map([['execute', { x: 1, y: 2 }]])))).toBe(problems);
    const cut = removeEdges(graph, graph.edges.map((edge) => edge.id));
    expect(problemsAfter(graph, problems, cut)).toEqual(validateGraph(cut));
    expect(problemsAfter(graph, problems, cut)?.length).toBeGreaterThan(problems.length);
  });
});

describe('the store', () => {
  it('does not revalidate on a position-only edit (a drag move), nor on undoing it', async () => {
    await useApp.getState().openTemplate('securityclaw');
    const before = useApp.getState().problems;
    const validate = validateSpy;
    validate.mockClear();
    for (let step = 1; step <= 20; step += 1) useApp.getState().edit((graph) => moveNodes(graph, new Map([['decide', { x: step, y: step }]])), 'move:decide:1');
    useApp.getState().undo();
    useApp.getState().redo();
    expect(validate).not.toHaveBeenCalled();
    expect(useApp.getState().problems).toBe(before);
    useApp.getState().edit((graph) => removeEdges(graph, ['e1']));
    expect(validate).toHaveBeenCalledTimes(1);
    expect(useApp.getState().problems).not.toBe(before);
  });

  it('checks a graph just opened once the page is idle after drawing it, and checks it as it is by then', async () => {
    const idle: IdleRequestCallback[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => idle.push(callback));
    try {
      const graph = securityclaw();
      const broken = removeEdges(graph, ['e1']);
      useApp.getState().openDocument(broken, 'graph-opened');
      expect(useApp.getState().problems).toBeNull();
      expect(validateSpy).not.toHaveBeenCalled();
      // A drag begun before the check keeps it waiting; the check sees the moved graph.
      useApp.getState().edit((current) => moveNodes(current, new Map([['decide', { x: 9, y: 9 }]])), 'move:decide:1');
      expect(useApp.getState().problems).toBeNull();
      for (const callback of idle.splice(0)) callback({ didTimeout: false, timeRemaining: () => 50 });
      await vi.waitFor(() => expect(useApp.getState().problems).not.toBeNull());
      expect(useApp.getState().problems).toEqual(validateGraph(useApp.getState().graph));
      expect(useApp.getState().problems!.length).toBeGreaterThan(validateGraph(graph).length);
      expect(validateSpy).toHaveBeenCalledTimes(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('where the browser has no idle callbacks, checks a graph just opened a frame and a task after it', async () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestIdleCallback', undefined);
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    try {
      useApp.getState().openDocument(removeEdges(securityclaw(), ['e1']), 'graph-opened-no-idle');
      expect(useApp.getState().problems).toBeNull();
      for (const frame of frames.splice(0)) frame(0);
      await vi.waitFor(() => expect(useApp.getState().problems).toEqual(validateGraph(useApp.getState().graph)));
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
