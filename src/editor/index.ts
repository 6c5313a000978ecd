// The editor's public face, composed by the app shell.
export { Canvas } from './Canvas.tsx';
export { Palette } from './Palette.tsx';
export { EditorToolbar } from './EditorToolbar.tsx';
export { Inspector, loadSelectionForms } from './Inspector.tsx';
export { ProblemsPanel } from './ProblemsPanel.tsx';
export { ViewControls } from './ViewControls.tsx';
export { OtherTabNotice } from './OtherTabNotice.tsx';
