// The editor's panel contents, loaded after the first screen (src/app/panels.ts).
export { Inspector, loadSelectionForms } from './Inspector.tsx';
export { Palette } from './Palette.tsx';
export { ProblemsPanel } from './ProblemsPanel.tsx';
export { ViewControls } from './ViewControls.tsx';
