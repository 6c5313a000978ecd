import type { ElementProblems } from '../store/problemsByElement.ts';

/** The validation panel's problems, marked where they are on the canvas. */
export function ProblemMark({ problems }: { problems: ElementProblems }) {
  const text = problems.messages.join('\n');
  return (
    <span className={`problem-mark ${problems.severity}`} role="img" aria-label={`${problems.severity}: ${text}`} title={text}>
      {problems.severity === 'error' ? '⛔' : '⚠'}
    </span>
  );
}
