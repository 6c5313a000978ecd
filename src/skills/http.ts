import type { HttpSkill } from '../graph/index.ts';
import { fillTemplate, readPath } from './template.ts';
import { outcomeOfRecords, type SkillContext, type SkillResult, type SkillRunner } from './types.ts';

/** Races a request against a timer so that a server that never answers becomes a `timeout`. */
export const fetchWithTimeout = async (
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<Response | 'timeout'> => {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve('timeout');
    }, timeoutMs);
  });
  try {
    return await Promise.race([fetchImpl(url, { ...init, signal: controller.signal }), timedOut]);
  } finally {
    clearTimeout(timer);
  }
};

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

export const failureOfStatus = (status: number): SkillResult['outcome'] => (status === 401 || status === 403 ? 'permission_denied' : 'error');

export const createHttpSkill = (name: string, skill: HttpSkill): SkillRunner => ({
  name,
  access: skill.access,
  call: async (args, context: SkillContext): Promise<SkillResult> => {
    const tokens = skill.tokens ?? 0;
    const started = Date.now();
    const sources = { args, state: context.state };
    const url = fillTemplate(skill.url, sources, encodeURIComponent);
    const timeoutMs = Math.min(skill.timeoutMs, context.timeoutMs ?? Number.POSITIVE_INFINITY);
    const fail = (outcome: SkillResult['outcome'], error: string): SkillResult => ({ outcome, records: [], tokens, error, durationMs: Date.now() - started });
    let response: Response | 'timeout';
    try {
      response = await fetchWithTimeout(context.fetch ?? fetch, url, {
        method: skill.method,
        headers: skill.headers,
        body: skill.body === undefined ? undefined : fillTemplate(skill.body, sources),
      }, timeoutMs);
    } catch (error) {
      return fail('error', `network failure: ${(error as Error).message}`);
    }
    if (response === 'timeout') return fail('timeout', `no answer within ${timeoutMs} ms`);
    if (!response.ok) return fail(failureOfStatus(response.status), `HTTP ${response.status} from ${hostOf(url)}`);
    let body: unknown;
    try {
      body = JSON.parse(await response.text());
    } catch {
      return fail('parse_error', 'the answer is not JSON');
    }
    const found = skill.recordsPath ? readPath(body, skill.recordsPath) : body;
    if (!Array.isArray(found))
      return fail('parse_error', skill.recordsPath ? `no array at ${skill.recordsPath} in the answer` : 'the answer is not an array (set recordsPath)');
    return { outcome: outcomeOfRecords(found), records: found, tokens, durationMs: Date.now() - started };
  },
});
