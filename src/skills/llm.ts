import type { LlmSkill } from '../graph/index.ts';
import { failureOfStatus, fetchWithTimeout } from './http.ts';
import { type SkillContext, type SkillResult, type SkillRunner } from './types.ts';

const ChatAnswer = (body: unknown): { text: string; totalTokens: number } | null => {
  const record = body as { choices?: { message?: { content?: unknown } }[]; usage?: { total_tokens?: unknown } } | null;
  const text = record?.choices?.[0]?.message?.content;
  if (typeof text !== 'string') return null;
  const totalTokens = record?.usage?.total_tokens;
  return { text, totalTokens: typeof totalTokens === 'number' ? totalTokens : 0 };
};

/** The key comes from memory (browser) or the environment (CLI); it only ever goes into the request header. */
const apiKeyOf = (skill: LlmSkill, context: SkillContext): string | undefined =>
  skill.apiKeyName ? (context.secrets?.[skill.apiKeyName] ?? context.env?.[skill.apiKeyName]) : undefined;

/**
 * An OpenAI-compatible chat completion. `args.prompt` (or the args as JSON) is the user message;
 * the answer's text is the one record and `usage.total_tokens` is what the budget is charged.
 */
export const createLlmSkill = (name: string, skill: LlmSkill): SkillRunner => ({
  name,
  access: skill.access,
  call: async (args, context): Promise<SkillResult> => {
    const started = Date.now();
    const fail = (outcome: SkillResult['outcome'], error: string, tokens = 0): SkillResult => ({ outcome, records: [], tokens, error, durationMs: Date.now() - started });
    const key = apiKeyOf(skill, context);
    if (skill.apiKeyName && !key) return fail('permission_denied', `no key named ${skill.apiKeyName} was given`);
    const prompt = typeof args.prompt === 'string' ? args.prompt : JSON.stringify(args);
    const timeoutMs = Math.min(skill.timeoutMs, context.timeoutMs ?? Number.POSITIVE_INFINITY);
    let response: Response | 'timeout';
    try {
      response = await fetchWithTimeout(context.fetch ?? fetch, `${skill.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({
          model: skill.model,
          messages: [{ role: 'user', content: prompt }],
          seed: context.seed,
          ...(skill.temperature === undefined ? {} : { temperature: skill.temperature }),
        }),
      }, timeoutMs);
    } catch (error) {
      return fail('error', `network failure: ${(error as Error).message}`);
    }
    if (response === 'timeout') return fail('timeout', `no answer within ${timeoutMs} ms`);
    if (!response.ok) return fail(failureOfStatus(response.status), `HTTP ${response.status} from the model server`);
    let answer: ReturnType<typeof ChatAnswer>;
    try {
      answer = ChatAnswer(JSON.parse(await response.text()));
    } catch {
      answer = null;
    }
    if (!answer) return fail('parse_error', 'the answer is not a chat completion');
    const tokens = answer.totalTokens || (skill.tokens ?? 0);
    return { outcome: answer.text.trim() ? 'ok' : 'empty', records: answer.text.trim() ? [{ text: answer.text }] : [], tokens, text: answer.text, durationMs: Date.now() - started };
  },
});
