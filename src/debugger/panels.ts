// The debugger's panel contents and its toolbar, loaded after the first screen (src/app/panels.ts).
export { RunToolbar } from './RunToolbar.tsx';
export { RunOnCanvas } from './RunOnCanvas.tsx';
// Loaded when first needed.
export { GrantConsent, HostConsent, RunComparison, ServerCanvas, ServerStartConsent } from './lazy.tsx';

export { loadTimelineRun, Timeline } from './Timeline.tsx';
export { loadStepView, StepDetail } from './StepDetail.tsx';
export { ScenariosPanel } from './ScenariosPanel.tsx';
