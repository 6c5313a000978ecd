import { type LlmSkill } from '../graph/index.ts';
import { originOf } from '../graph/hosts.ts';
import { exchange, failureOf } from './net.ts';
import type { ToolDescription } from './mcp.ts';
import { type SkillContext, type SkillResult, type SkillRunner } from './types.ts';

type ToolCall = { function?: { name?: unknown; arguments?: unknown } };

/**
 * A `tool_calls` answer as the decider's reply text, `{"tool": NAME, "args": {...}}`; arguments
 * that are not JSON stay as they came, so that the reply fails to parse as any other would.
 */
const toolCallReply = (call: ToolCall): string | null => {
  const name = call.function?.name;
  const raw = call.function?.arguments;
  if (typeof name !== 'string') return null;
  if (typeof raw !== 'string') return JSON.stringify({ tool: name, args: raw ?? {} });
  try {
    return JSON.stringify({ tool: name, args: raw.trim() ? JSON.parse(raw) : {} });
  } catch {
    return `{"tool": ${JSON.stringify(name)}, "args": ${raw}}`;
  }
};

const ChatAnswer = (body: unknown): { text: string; totalTokens: number } | null => {
  const record = body as { choices?: { message?: { content?: unknown; tool_calls?: ToolCall[] } }[]; usage?: { total_tokens?: unknown } } | null;
  const message = record?.choices?.[0]?.message;
  const call = Array.isArray(message?.tool_calls) && message.tool_calls.length > 0 ? toolCallReply(message.tool_calls[0]) : null;
  const text = call ?? message?.content;
  if (typeof text !== 'string') return null;
  const totalTokens = record?.usage?.total_tokens;
  return { text, totalTokens: typeof totalTokens === 'number' ? totalTokens : 0 };
};

/** A loop's tools as the endpoint's native `tools` (OpenAI function tools). */
const nativeTools = (tools: unknown): unknown[] | undefined => {
  if (!Array.isArray(tools) || tools.length === 0) return undefined;
  return (tools as ToolDescription[]).map((tool) => ({
    type: 'function',
    function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.inputSchema ?? { type: 'object', properties: {} } },
  }));
};

/** The key for this skill's origin, none when it names no key, or why it is not sent. */
const keyFor = (skill: LlmSkill, origin: string, context: SkillContext): { key?: string; refused?: string } => {
  if (!skill.apiKeyName) return {};
  const answer = context.keys?.(skill.apiKeyName, origin) ?? { refused: `no key named ${skill.apiKeyName} was given` };
  return 'key' in answer ? { key: answer.key } : { refused: answer.refused };
};

/**
 * An OpenAI-compatible chat completion. `args.prompt` (or the args as JSON) is the user message;
 * the answer's text is the one record and `usage.total_tokens` is what the budget is charged.
 * The key only ever goes into the request header, and only to the origin it was given for.
 */
export const createLlmSkill = (name: string, skill: LlmSkill): SkillRunner => ({
  name,
  access: skill.access,
  call: async (args, context): Promise<SkillResult> => {
    const started = Date.now();
    const fail = (outcome: SkillResult['outcome'], error: string, tokens = 0): SkillResult => ({ outcome, records: [], tokens, error, durationMs: Date.now() - started });
    const url = `${skill.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const origin = originOf(url);
    if (!origin) return fail('error', `the base URL ${JSON.stringify(skill.baseUrl)} is not a URL`);
    const { key, refused } = keyFor(skill, origin, context);
    if (refused) return fail('permission_denied', refused);
    const prompt = typeof args.prompt === 'string' ? args.prompt : JSON.stringify(args);
    const tools = skill.toolCalls ? nativeTools(args.tools) : undefined;
    const answer = await exchange(context.fetch ?? fetch, url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({
        model: skill.model,
        messages: [{ role: 'user', content: prompt }],
        seed: context.seed,
        ...(skill.temperature === undefined ? {} : { temperature: skill.temperature }),
        ...(tools ? { tools } : {}),
      }),
    }, Math.min(skill.timeoutMs, context.timeoutMs ?? Number.POSITIVE_INFINITY));
    const failure = failureOf(answer, 'the model server');
    if (failure || answer.type !== 'answer') return fail(failure?.outcome ?? 'error', failure?.error ?? 'no answer');
    let chat: ReturnType<typeof ChatAnswer>;
    try {
      chat = ChatAnswer(JSON.parse(answer.text));
    } catch {
      chat = null;
    }
    if (!chat) return fail('parse_error', 'the answer is not a chat completion');
    const tokens = chat.totalTokens || (skill.tokens ?? 0);
    const text = chat.text;
    return { outcome: text.trim() ? 'ok' : 'empty', records: text.trim() ? [{ text }] : [], tokens, text, durationMs: Date.now() - started };
  },
});
