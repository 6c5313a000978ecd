import { memo } from 'react';
import { visibleRuns } from '../graph/visible.ts';

/**
 * A name from a graph file, a trace or a server, drawn in the page: its control and format
 * characters (a bidi override, a zero-width mark, a line break) are drawn as their escapes
 * (`\u202e`, src/graph/visible.ts), muted, so that a name cannot reorder, hide or fake the text
 * around it. A name with none is its text alone, no element more: the canvas draws many. Where no
 * element can go (an option's text, a title, an aria-label) the page uses visibleText itself.
 */
export const Shown = memo(function Shown({ text }: { text: string }) {
  const runs = visibleRuns(text);
  if (runs.length === 1) return runs[0];
  return runs.map((run, index) => (index % 2 === 1 ? <span key={index} className="shown-escape">{run}</span> : run));
});
