import { useApp } from '../store/index.ts';
import { coverCanvas } from '../ui/freeRoom.ts';
import { Shown } from '../ui/Shown.tsx';

/** Shown while the run waits at an approve node: what would run, and why it was refused. */
export function ApprovalPrompt() {
  const pending = useApp((state) => state.pendingApproval);
  const status = useApp((state) => state.runStatus);
  const decide = useApp((state) => state.decide);
  if (!pending || status !== 'awaiting_approval') return null;
  return (
    // Over the canvas: a fit keeps the graph out from under it, and a view still fitted fits again when it comes and goes (ui/freeRoom.ts).
    <div role="dialog" aria-label="Approval" className="approval" data-covers-canvas ref={coverCanvas}>
      <h3>Approval needed at <Shown text={pending.node} /></h3>
      <p><Shown text={pending.prompt} /></p>
      <dl>
        {pending.skill && (<><dt>Skill</dt><dd><code><Shown text={pending.skill} /></code></dd></>)}
        {pending.args && (<><dt>Arguments</dt><dd><code><Shown text={JSON.stringify(pending.args)} /></code></dd></>)}
        {pending.reason && (<><dt>Why it was denied</dt><dd><Shown text={pending.reason} /></dd></>)}
      </dl>
      <div className="approval-buttons">
        <button type="button" className="approve" onClick={() => void decide('approved')}>Approve the action</button>
        <button type="button" className="deny" onClick={() => void decide('denied')}>Deny the action</button>
      </div>
    </div>
  );
}
