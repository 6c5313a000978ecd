/**
 * A run's status as a pure transition: `(status, event) => status`. A run's session (session.ts)
 * moves its status only through `nextStatus`, and its executor tells a `status` event when it
 * changed; the status chart in controller.ts is this function.
 */
import type { RunStatus } from './controller.ts';

/** What happened to a run, as far as its status goes. */
export type RunStatusEvent =
  /** A Run or Continue began. */
  | { type: 'run_started' }
  /** A Step or Run came back with the run going on (a breakpoint, pause(), one node stepped), or a fork's first Run held at a breakpoint before anything ran. */
  | { type: 'paused' }
  /** The next node asks a person, and nobody answered yet. */
  | { type: 'approval_asked' }
  /** A person answered the approval: the run goes on with `step()` or `run()`. */
  | { type: 'decided' }
  /** The run ended: its end, a guard, no route, a failure (an `error` stop), or a person's stop. */
  | { type: 'stopped' };

/** Where a run stands when its controller is made: fresh, restored from a journal, forked or unable to start. */
export const startingStatus = (run: { stopped: boolean; awaitingApproval: boolean; stepsRan: number }): RunStatus =>
  run.stopped ? 'stopped' : run.awaitingApproval ? 'awaiting_approval' : run.stepsRan > 0 ? 'paused' : 'idle';

/** The status after `event`. A stopped run stays stopped (a fork is a new run); only a pending approval is answered. */
export const nextStatus = (status: RunStatus, event: RunStatusEvent): RunStatus => {
  if (status === 'stopped') return status;
  switch (event.type) {
    case 'run_started':
      return 'running';
    case 'paused':
      return 'paused';
    case 'approval_asked':
      return 'awaiting_approval';
    case 'decided':
      return status === 'awaiting_approval' ? 'paused' : status;
    case 'stopped':
      return 'stopped';
  }
};
