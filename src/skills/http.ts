import { type HttpSkill } from '../graph/index.ts';
import { originOf } from '../graph/hosts.ts';
import { effectiveAccess } from '../graph/skills.ts';
import { exchange, failureOf } from './net.ts';
import { fillJsonTemplate, fillTemplate, isJsonBody, readPath } from './template.ts';
import { outcomeOfRecords, type SkillContext, type SkillResult, type SkillRunner } from './types.ts';

export const createHttpSkill = (name: string, skill: HttpSkill): SkillRunner => ({
  name,
  access: effectiveAccess(skill),
  call: async (args, context: SkillContext): Promise<SkillResult> => {
    const tokens = skill.tokens ?? 0;
    const started = Date.now();
    const sources = { args, state: context.state };
    const url = fillTemplate(skill.url, sources, encodeURIComponent);
    const fail = (outcome: SkillResult['outcome'], error: string): SkillResult => ({ outcome, records: [], tokens, error, durationMs: Date.now() - started });
    const body = skill.body === undefined ? undefined : isJsonBody(skill.body, skill.headers) ? fillJsonTemplate(skill.body, sources) : fillTemplate(skill.body, sources);
    const answer = await exchange(context.fetch ?? fetch, url, { method: skill.method, headers: skill.headers, body }, Math.min(skill.timeoutMs, context.timeoutMs ?? Number.POSITIVE_INFINITY));
    const failure = failureOf(answer, originOf(url) ?? 'the service');
    if (failure || answer.type !== 'answer') return fail(failure?.outcome ?? 'error', failure?.error ?? 'no answer');
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      return fail('parse_error', 'the answer is not JSON');
    }
    const found = skill.recordsPath ? readPath(parsed, skill.recordsPath) : parsed;
    if (!Array.isArray(found))
      return fail('parse_error', skill.recordsPath ? `no array at ${skill.recordsPath} in the answer` : 'the answer is not an array (set recordsPath)');
    return { outcome: outcomeOfRecords(found), records: found, tokens, durationMs: Date.now() - started };
  },
});
