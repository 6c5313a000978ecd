import { visibleText } from '../graph/visible.ts';
import type { ElementProblems } from '../store/problemsByElement.ts';
import { problemIconImage } from '../ui/problemIcons.ts';

/**
 * The validation panel's problems, marked where they are on the canvas. The icon is a background
 * image (the same lucide drawing as the panel's), not an inline SVG: a big graph has a mark on many
 * of its nodes and labels, and each inline SVG made every drag and pan frame slower.
 */
export function ProblemMark({ problems }: { problems: ElementProblems }) {
  // A message quotes the file's names: each one line, its escapes shown.
  const text = problems.messages.map(visibleText).join('\n');
  return (
    <span
      className={`problem-mark icon-image ${problems.severity}`}
      role="img"
      aria-label={`${problems.severity}: ${text}`}
      title={text}
      style={{ '--icon': problemIconImage(problems.severity) } as React.CSSProperties}
    />
  );
}
