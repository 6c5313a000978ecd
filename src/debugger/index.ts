// The debugger's public face, composed by the app shell.
export { RunToolbar } from './RunToolbar.tsx';
export { Timeline } from './Timeline.tsx';
export { StepDetail } from './StepDetail.tsx';
