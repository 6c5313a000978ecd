import { describe, expect, it } from 'vitest';
import { sideAfter } from './sideFocus.ts';

const idle = {
  selection: { nodes: [] as string[], edges: [] as string[] },
  selectedStep: null as number | null,
  runStatus: 'idle' as const,
  pendingApproval: null,
  runError: null as string | null,
  runRefused: null as string | null,
  traceWarning: null as string | null,
};
type Watched = Parameters<typeof sideAfter>[0];
const at = (change: Partial<Watched>): Watched => ({ ...idle, ...change });

describe('whom the side is for', () => {
  it('gives it to the inspector for one node or one edge selected, and back for nothing or many', () => {
    expect(sideAfter(at({}), at({ selection: { nodes: ['act'], edges: [] } }), 'step')).toBe('inspector');
    expect(sideAfter(at({}), at({ selection: { nodes: [], edges: ['e1'] } }), 'step')).toBe('inspector');
    expect(sideAfter(at({ selection: { nodes: ['act'], edges: [] } }), at({}), 'inspector')).toBe('step');
    expect(sideAfter(at({ selection: { nodes: ['act'], edges: [] } }), at({ selection: { nodes: ['act', 'reason'], edges: [] } }), 'inspector')).toBe('step');
    // The same selection in a new object (an edit) changes nothing.
    expect(sideAfter(at({ selection: { nodes: ['act'], edges: [] } }), at({ selection: { nodes: ['act'], edges: [] } }), 'step')).toBe('step');
  });

  it('gives it to the step detail for a step asked for, an approval or a run message, not for the steps a running run shows', () => {
    const editing = at({ selection: { nodes: ['act'], edges: [] } });
    expect(sideAfter(editing, { ...editing, selectedStep: 1, runStatus: 'paused' }, 'inspector')).toBe('step');
    expect(sideAfter({ ...editing, selectedStep: 1, runStatus: 'running' }, { ...editing, selectedStep: 2, runStatus: 'running' }, 'inspector')).toBe('inspector');
    expect(sideAfter({ ...editing, selectedStep: 2, runStatus: 'running' }, { ...editing, selectedStep: 3, runStatus: 'stopped' }, 'inspector')).toBe('step');
    expect(sideAfter(editing, { ...editing, runRefused: 'no entry' }, 'inspector')).toBe('step');
    expect(sideAfter(editing, { ...editing, runError: 'boom' }, 'inspector')).toBe('step');
    expect(sideAfter(editing, { ...editing, traceWarning: 'odd' }, 'inspector')).toBe('step');
    expect(sideAfter(editing, { ...editing, pendingApproval: { node: 'approve' } as Watched['pendingApproval'] }, 'inspector')).toBe('step');
    expect(sideAfter(editing, editing, 'inspector')).toBe('inspector');
  });
});
