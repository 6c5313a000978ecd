import { own } from '../../graph/index.ts';
import { asRecord, type Executor } from './types.ts';

const REASON_OF_FAILURE: Record<string, string> = { timeout: 'timeout', parse_error: 'parse_error', permission_denied: 'permission_denied' };

const recordCount = (state: Readonly<Record<string, unknown>>): number => {
  if (Array.isArray(state.results))
    return state.results.reduce((sum: number, result) => {
      const records = asRecord(result)?.records;
      return sum + (Array.isArray(records) ? records.length : 0);
    }, 0);
  return Array.isArray(state.collected) ? state.collected.length : 0;
};

/** Judges the evidence of the latest act visit (or what was collected when nothing acted). */
export const executeVerify: Executor<'verify'> = async ({ node, state }) => {
  const failure = asRecord(state.execution_error);
  const records = recordCount(state);
  const { minRecords } = node.config;
  const judge = (outcome: 'sufficient' | 'exhausted' | 'continue', reason: string, reasoning: string) => ({
    outcome,
    writes: { evaluation: { evidence_sufficient: outcome === 'sufficient', plan_exhausted: outcome === 'exhausted', reason, reasoning, records } },
    attempts: [],
    note: reasoning,
  });
  if (failure) {
    const reason = own(REASON_OF_FAILURE, String(failure.outcome)) ?? 'execution_error';
    return judge('exhausted', reason, `${String(failure.skill)} ended with ${String(failure.outcome)}: the plan is exhausted (${reason})`);
  }
  if (records >= minRecords && (records > 0 || minRecords === 0))
    return judge('sufficient', 'sufficient', `${records} record(s), at least the ${minRecords} needed: the evidence is sufficient`);
  if (records === 0) return judge('exhausted', 'empty_result', 'zero records: an empty result is not a success, the plan is exhausted');
  return judge('continue', 'coverage_low', `${records} record(s), fewer than the ${minRecords} needed: coverage is low, keep going`);
};
