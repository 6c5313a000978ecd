import type { ElementProblems } from '../store/problemsByElement.ts';
import { ErrorIcon, WarningIcon } from '../ui/icons.tsx';

/** The validation panel's problems, marked where they are on the canvas. */
export function ProblemMark({ problems }: { problems: ElementProblems }) {
  const text = problems.messages.join('\n');
  const Icon = problems.severity === 'error' ? ErrorIcon : WarningIcon;
  return (
    <span className={`problem-mark ${problems.severity}`} role="img" aria-label={`${problems.severity}: ${text}`} title={text}>
      <Icon size={16} aria-hidden="true" />
    </span>
  );
}
