// The editor's public face on the first screen, composed by the app shell; the panels' contents load
// after the shell's first commit (src/app/panelRegistry.ts).
// The panels' styles come with the first screen: a style sheet added later restyles the whole page.
import './inspector.css';

export { Canvas } from './Canvas.tsx';
