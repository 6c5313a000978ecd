// The debugger's part of the first screen: its styles. The panels' contents load after the shell's
// first commit (src/app/panelRegistry.ts).
import './debugger.css';
// The panels' styles come with the first screen: a style sheet added later restyles the whole page.
import './scenarios.css';

