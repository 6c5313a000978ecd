import { useEffect, useState } from 'react';
import { useApp, type AppState } from '../store/index.ts';

/** What the editing layout's side is for now: the inspector (a node or an edge being edited) or the step detail. */
export type SideFocus = 'inspector' | 'step';

type Watched = Pick<AppState, 'selection' | 'selectedStep' | 'runStatus' | 'pendingApproval' | 'runError' | 'runRefused' | 'traceWarning'>;

const sameSelection = (a: Watched['selection'], b: Watched['selection']) => a.nodes.join('\n') === b.nodes.join('\n') && a.edges.join('\n') === b.edges.join('\n');
const arrived = (before: unknown, after: unknown) => after !== null && after !== before;

/**
 * Whom the side is given to after a change of the store, the person's last ask winning: one node
 * or one edge selected gives it to the inspector, so its settings need no scroll; anything else
 * selected (nothing, many) gives it back. A step asked for (Step, a step picked in the timeline, a
 * run's end), an approval waiting and a run's message give it to the step detail. The steps a
 * running run shows by itself do not: the form being edited does not shrink under the pointer.
 */
export const sideAfter = (before: Watched, after: Watched, focus: SideFocus): SideFocus => {
  if (!sameSelection(before.selection, after.selection)) return after.selection.nodes.length + after.selection.edges.length === 1 ? 'inspector' : 'step';
  const stepAsked = after.selectedStep !== null && after.selectedStep !== before.selectedStep && after.runStatus !== 'running';
  const told = arrived(before.pendingApproval, after.pendingApproval) || arrived(before.runError, after.runError) || arrived(before.runRefused, after.runRefused) || arrived(before.traceWarning, after.traceWarning);
  return stepAsked || told ? 'step' : focus;
};

/** The side's focus, following the store. */
export const useSideFocus = (): [SideFocus, (focus: SideFocus) => void] => {
  const [focus, setFocus] = useState<SideFocus>('step');
  useEffect(() => useApp.subscribe((after, before) => setFocus((current) => sideAfter(before, after, current))), []);
  return [focus, setFocus];
};
