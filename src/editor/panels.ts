// The editor's panel contents and its toolbar, loaded after the first screen (src/app/panels.ts).
export { EditorToolbar } from './EditorToolbar.tsx';
export { OtherTabNotice } from './OtherTabNotice.tsx';
export { Inspector, loadSelectionForms } from './Inspector.tsx';
export { Palette } from './Palette.tsx';
export { ProblemsPanel } from './ProblemsPanel.tsx';
export { ViewControls } from './ViewControls.tsx';
