// The debugger's panel contents, loaded after the first screen (src/app/panels.ts).

export { loadTimelineRun, Timeline } from './Timeline.tsx';
export { loadStepView, StepDetail } from './StepDetail.tsx';
export { ScenariosPanel } from './ScenariosPanel.tsx';
