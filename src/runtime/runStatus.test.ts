import { describe, expect, it } from 'vitest';
import type { RunStatus } from './controller.ts';
import { nextStatus, startingStatus, type RunStatusEvent } from './runStatus.ts';

const ALL: RunStatus[] = ['idle', 'running', 'paused', 'awaiting_approval', 'stopped'];
const after = (status: RunStatus, ...events: RunStatusEvent['type'][]) => events.reduce((current, type) => nextStatus(current, { type } as RunStatusEvent), status);

describe('startingStatus', () => {
  it('is idle for a fresh run, paused for one that ran, and says so first when stopped or awaiting a person', () => {
    expect(startingStatus({ stopped: false, awaitingApproval: false, stepsRan: 0 })).toBe('idle');
    expect(startingStatus({ stopped: false, awaitingApproval: false, stepsRan: 3 })).toBe('paused');
    expect(startingStatus({ stopped: false, awaitingApproval: true, stepsRan: 3 })).toBe('awaiting_approval');
    expect(startingStatus({ stopped: true, awaitingApproval: true, stepsRan: 0 })).toBe('stopped');
  });
});

describe('nextStatus', () => {
  it('follows a Run to a breakpoint, an approval, an answer and the end', () => {
    expect(after('idle', 'run_started')).toBe('running');
    expect(after('idle', 'run_started', 'paused')).toBe('paused');
    expect(after('paused', 'run_started', 'approval_asked')).toBe('awaiting_approval');
    expect(after('paused', 'run_started', 'approval_asked', 'decided')).toBe('paused');
    expect(after('paused', 'run_started', 'stopped')).toBe('stopped');
  });

  it('a Step from idle leaves the run paused', () => {
    expect(after('idle', 'paused')).toBe('paused');
  });

  it('only a pending approval is answered', () => {
    for (const status of ['idle', 'running', 'paused'] as const) expect(nextStatus(status, { type: 'decided' })).toBe(status);
  });

  it('a stopped run stays stopped whatever comes after', () => {
    for (const type of ['run_started', 'paused', 'approval_asked', 'decided', 'stopped'] as const) expect(nextStatus('stopped', { type })).toBe('stopped');
  });

  it('any run that has not stopped can stop', () => {
    for (const status of ALL) expect(nextStatus(status, { type: 'stopped' })).toBe('stopped');
  });
});
