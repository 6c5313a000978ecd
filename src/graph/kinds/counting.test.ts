import { describe, expect, it } from 'vitest';
import { countedVerdict, countedVerdicts, FAILURE_REASONS, reasonOfFailure } from './counting.ts';

describe("a counting Verify's verdict", () => {
  it('is sufficient at minRecords, empty at zero, low coverage between (zero is a success only when none are needed)', () => {
    expect(countedVerdict(2, 2).reason).toBe('sufficient');
    expect(countedVerdict(0, 2).reason).toBe('empty_result');
    expect(countedVerdict(1, 2)).toEqual({ outcome: 'continue', reason: 'coverage_low' });
    expect(countedVerdict(0, 0).reason).toBe('sufficient');
  });

  it('lists every reason a minRecords can reach: low coverage needs two or more, an empty result one or more', () => {
    expect(countedVerdicts(0).map(({ reason }) => reason)).toEqual(['sufficient']);
    expect(countedVerdicts(1).map(({ reason }) => reason).sort()).toEqual(['empty_result', 'sufficient']);
    expect(countedVerdicts(3).map(({ reason }) => reason).sort()).toEqual(['coverage_low', 'empty_result', 'sufficient']);
  });

  it('names a failed call by its outcome, any other failure an execution error', () => {
    expect(reasonOfFailure('timeout')).toBe('timeout');
    expect(reasonOfFailure('error')).toBe('execution_error');
    expect(FAILURE_REASONS.sort()).toEqual(['execution_error', 'parse_error', 'permission_denied', 'timeout']);
  });
});
