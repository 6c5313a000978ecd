// The debugger's public face, composed by the app shell.
import './debugger.css';
import './scenarios.css';

export { RunToolbar } from './RunToolbar.tsx';
export { Timeline } from './Timeline.tsx';
export { StepDetail } from './StepDetail.tsx';
export { BreakpointsPanel } from './BreakpointsPanel.tsx';
export { Gauges } from './Gauges.tsx';
export { HostConsent } from './HostConsent.tsx';
export { ScenariosPanel } from './ScenariosPanel.tsx';
export { RunComparison } from './RunComparison.tsx';
