// The debugger's public face, composed by the app shell.
import './debugger.css';
import './scenarios.css';

export { RunToolbar } from './RunToolbar.tsx';
export { loadTimelineRun, Timeline } from './Timeline.tsx';
export { loadStepView, StepDetail } from './StepDetail.tsx';
export { BreakpointsPanel } from './BreakpointsPanel.tsx';
export { Gauges } from './Gauges.tsx';
export { ScenariosPanel } from './ScenariosPanel.tsx';
// Loaded when first needed: not on the first screen.
export { HostConsent, RunComparison } from './lazy.tsx';
