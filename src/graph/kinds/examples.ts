/**
 * Each kind's configs as fast-check arbitraries, for the property tests (src/graph/arbitrary.ts;
 * never imported by the app). They write what a person may write (defaults left out), so the
 * parser's defaults and the runtime see the variety a real file brings. A registered kind with no
 * entry does not compile.
 */
import fc from 'fast-check';
import { FAILURE_OUTCOMES } from '../common.ts';
import { HUMAN_ACTION } from './recover.ts';
import { EVALUATION_REASONS } from './verify.ts';
import type { NodeKind } from './index.ts';

export const jsonLeaf = fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: -1000, max: 1000 }), fc.boolean(), fc.constant(null));
export const jsonKey = fc.constantFrom('ip', 'host', 'count', 'toString', 'valueOf', 'q');
export const jsonRecord = fc.dictionary(jsonKey, jsonLeaf, { maxKeys: 3 });

const retry = fc.record(
  // permission_denied among them: validation refuses it (retry_denied), and the property tests see that too.
  { maxAttempts: fc.integer({ min: 1, max: 4 }), retryOn: fc.uniqueArray(fc.constantFrom(...FAILURE_OUTCOMES), { maxLength: 3 }) },
  { requiredKeys: [] },
);

const loop = (skill: fc.Arbitrary<string>) =>
  fc.record({ decider: skill, tools: fc.uniqueArray(skill, { maxLength: 2 }), maxIter: fc.integer({ min: 1, max: 3 }) }, { requiredKeys: ['decider'] });

/** A kind's configs, naming skills drawn from `skill` (the graph's). */
export const KIND_EXAMPLES: { [K in NodeKind]: (skill: fc.Arbitrary<string>) => fc.Arbitrary<Record<string, unknown>> } = {
  reason: (skill) => fc.record({ plans: fc.array(fc.record({ actions: fc.array(fc.record({ skill, args: jsonRecord }), { maxLength: 2 }) }), { maxLength: 3 }), retry }, { requiredKeys: [] }),
  collect: (skill) => fc.record({ skills: fc.uniqueArray(skill, { maxLength: 2 }), retry, loop: loop(skill) }, { requiredKeys: [] }),
  act: (skill) => fc.record({ skill, retry, maxIter: fc.integer({ min: 1, max: 3 }), loop: loop(skill) }, { requiredKeys: [] }),
  verify: (skill) => fc.record({ minRecords: fc.integer({ min: 0, max: 3 }), judge: skill, loop: loop(skill), retry }, { requiredKeys: [] }),
  recover: (skill) => fc.record({ rules: fc.array(fc.record({ reason: fc.constantFrom(...EVALUATION_REASONS, 'otherwise'), action: fc.constantFrom('expand_search_scope', 'fallback_tool', HUMAN_ACTION), skill, estTokens: fc.integer({ min: 0, max: 100 }) }, { requiredKeys: ['reason', 'action'] }), { maxLength: 3 }) }, { requiredKeys: [] }),
  approve: () => fc.record({ prompt: fc.string({ maxLength: 10 }), auto: fc.constantFrom('approve', 'deny') }, { requiredKeys: [] }),
  respond: () => fc.record({ template: fc.string({ maxLength: 10 }) }, { requiredKeys: [] }),
  stop: () => fc.record({ reason: fc.constantFrom('stopped', 'no_recovery_path', 'constructor', 'to_string') }, { requiredKeys: [] }),
};
