/**
 * How a counting Verify (no judge, no loop) judges: one rule, read by the runtime that judges
 * (src/runtime/kinds/verify.ts) and by the lint that asks which reasons a Verify can give
 * (recoveryRules.ts), so that the two cannot drift apart.
 */
import { own } from '../common.ts';

/** The evaluation reason of a failed call, by the call's outcome: recovery rules are keyed by it. */
const REASON_OF_FAILURE: Record<string, string> = { timeout: 'timeout', parse_error: 'parse_error', permission_denied: 'permission_denied' };

/** The reason any other failure gives. */
const OTHER_FAILURE = 'execution_error';

export const reasonOfFailure = (outcome: string) => own(REASON_OF_FAILURE, outcome) ?? OTHER_FAILURE;

/** Every reason a failed call before a counting Verify can give. */
export const FAILURE_REASONS = [...new Set([...Object.values(REASON_OF_FAILURE), OTHER_FAILURE])];

export type CountedVerdict = { outcome: 'sufficient'; reason: 'sufficient' } | { outcome: 'exhausted'; reason: 'empty_result' } | { outcome: 'continue'; reason: 'coverage_low' };

/** The verdict on `records` gathered when `minRecords` are needed: zero records are never a success unless none are needed. */
export const countedVerdict = (records: number, minRecords: number): CountedVerdict => {
  if (records >= minRecords && (records > 0 || minRecords === 0)) return { outcome: 'sufficient', reason: 'sufficient' };
  if (records === 0) return { outcome: 'exhausted', reason: 'empty_result' };
  return { outcome: 'continue', reason: 'coverage_low' };
};

/** Every verdict a counting Verify needing `minRecords` can reach, one per reason. */
export const countedVerdicts = (minRecords: number): CountedVerdict[] => {
  const byReason = new Map([0, 1, minRecords - 1, minRecords].filter((records) => records >= 0).map((records) => {
    const verdict = countedVerdict(records, minRecords);
    return [verdict.reason, verdict] as const;
  }));
  return [...byReason.values()];
};
