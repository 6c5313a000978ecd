// The editor's public face on the first screen, composed by the app shell; the panels' contents are
// in panels.ts, which the shell loads after its first commit.
// The panels' styles come with the first screen: a style sheet added later restyles the whole page.
import './inspector.css';

export { Canvas } from './Canvas.tsx';
