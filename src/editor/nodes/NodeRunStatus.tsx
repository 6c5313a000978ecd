import { memo } from 'react';
import { own } from '../../graph/index.ts';
import { visibleText } from '../../graph/visible.ts';
import { useApp } from '../../store/index.ts';
import './nodeRunStatus.css';

/**
 * A node's status in the run, in words and colour: running, runs next, its attempt, failed, wrote
 * nothing or what it wrote. Its own selector reads this node's entry only: the store keeps an
 * unchanged entry as the same object, so a step redraws just the nodes whose status changed.
 */
function NodeRunStatusView({ id }: { id: string }) {
  const chips = useApp((state) => own(state.nodeStatus, id));
  if (!chips) return null;
  return (
    <ul className="node-run-status" aria-label={`Run status of ${id}`}>
      {chips.map((chip) => (
        // A chip names state fields and guards of the file: one line each, its escapes shown.
        <li key={chip.tone} className={`status-chip ${chip.tone}`} aria-label={visibleText(chip.label)} title={visibleText(chip.label)}>
          {visibleText(chip.text)}
        </li>
      ))}
    </ul>
  );
}

export const NodeRunStatus = memo(NodeRunStatusView);
