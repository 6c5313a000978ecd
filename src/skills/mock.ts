import type { MockEntry, MockSkill } from '../graph/skills.ts';
import type { SkillContext, SkillResult, SkillRunner } from './types.ts';

/** What one script entry answers; also how a fork's override of a skill's next results is served. */
export const resultOfEntry = (entry: MockEntry, defaultTokens: number | undefined, context: SkillContext): SkillResult => {
  const tokens = entry.tokens ?? defaultTokens ?? 0;
  const durationMs = entry.delayMs ?? 0;
  if (context.timeoutMs !== undefined && durationMs > context.timeoutMs)
    return { outcome: 'timeout', records: [], tokens, durationMs: context.timeoutMs, error: `no answer within ${context.timeoutMs} ms (took ${durationMs} ms)` };
  const records = entry.outcome === 'ok' || entry.outcome === 'empty' ? (entry.records ?? []) : [];
  const outcome = entry.outcome === 'ok' && records.length === 0 ? 'empty' : entry.outcome;
  return {
    outcome, records, tokens, durationMs,
    ...(entry.error ? { error: entry.error } : {}),
    // An llm's answer stands in as text, so that a planner parses a scripted reply as it parses a real one.
    ...(entry.reply === undefined ? {} : { text: typeof entry.reply === 'string' ? entry.reply : JSON.stringify(entry.reply) }),
  };
};

/**
 * A scripted skill: one entry per attempt, the last repeating. The delay is reported, not waited,
 * so a run is fast and the same graph gives the same trace.
 */
export const createMockSkill = (name: string, skill: MockSkill): SkillRunner => {
  let served = 0;
  const nextEntry = (): MockEntry => {
    const entry = skill.script[Math.min(served, skill.script.length - 1)];
    served += 1;
    return entry;
  };
  return {
    name,
    access: skill.access,
    simulated: true,
    call: async (_args, context) => resultOfEntry(nextEntry(), skill.tokens, context),
  };
};
