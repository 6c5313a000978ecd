/**
 * The panels' contents, gathered in one module so that they load in one chunk after the shell's
 * first commit: each loader of the shell's list (panelRegistry.ts) imports this module and takes its
 * panel from it, in development as in the build. A chunk per panel put each one's name and what it
 * imports on the first screen (1.4 KB gzip for 16 loaders); one chunk with all they import held the
 * canvas's first drawing back until the panels had loaded, so what they import is split as usual.
 */
export { EditorToolbar } from '../editor/EditorToolbar.tsx';
export { RunToolbar } from '../debugger/RunToolbar.tsx';
export { GrantConsent, HostConsent, RunComparison, ServerCanvas, ServerStartConsent } from '../debugger/lazy.tsx';
export { OtherTabNotice } from '../editor/OtherTabNotice.tsx';
export { Palette } from '../editor/Palette.tsx';
export { ViewControls } from '../editor/ViewControls.tsx';
export { RunOnCanvas } from '../debugger/RunOnCanvas.tsx';
export { loadTimelineRun, Timeline } from '../debugger/Timeline.tsx';
export { Inspector, loadSelectionForms } from '../editor/Inspector.tsx';
export { loadStepView, StepDetail } from '../debugger/StepDetail.tsx';
export { ScenariosPanel } from '../debugger/ScenariosPanel.tsx';
export { ProblemsPanel } from '../editor/ProblemsPanel.tsx';
