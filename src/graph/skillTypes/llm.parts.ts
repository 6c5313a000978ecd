import { FORBIDDEN_KEYS } from '../common.ts';
import { hasPlainHost } from '../hosts.ts';
import { skillBase } from '../skillBase.ts';
import { z } from '../zod.ts';
import type { SkillParts } from './types.ts';

/**
 * The name of an environment variable, as POSIX shells and dotenv files take it: what an llm
 * skill's \`apiKeyName\` and the command line's \`--key\` hold. Nothing else can be a line of its own
 * in an exported project's .env.example, or a shell's code.
 */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * An http(s) URL as a file may give it for a service: what \`new URL\` reads, with nothing it would
 * quietly drop or change on the way (it removes tabs and newlines, and trims spaces), so the address
 * a person sees is the one that is contacted and the one an export writes; and a plain host
 * (hasPlainHost), so that its origin is one entry of an export's LOOPSCOPE_KEYS, never two.
 */
export const isHttpUrl = (text: string): boolean => {
  if (/[\s\p{Cc}\p{Cf}]/u.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && hasPlainHost(url);
  } catch {
    return false;
  }
};

export const LlmSkill = z.strictObject({
  type: z.literal('llm'),
  ...skillBase,
  baseUrl: z.string().check(z.refine(isHttpUrl, 'expected an http(s) URL such as http://localhost:11434/v1, without spaces or control characters, whose host is a name (letters, digits, ".", "-", "_") or an IP address')),
  model: z.string().check(z.minLength(1)),
  /** The name of the key (an environment variable's name); the key itself never lives in the file. */
  apiKeyName: z.optional(z.string().check(
    z.regex(ENV_NAME, 'an API key name is the name of an environment variable: letters, digits and _, not starting with a digit'),
    // As for ids: a dotenv file cannot even set `__proto__` (its parser assigns it to an object).
    z.refine((name) => !FORBIDDEN_KEYS.has(name), 'this name is reserved (__proto__, constructor and prototype cannot be key names)'),
  )),
  temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
  timeoutMs: z._default(z.int().check(z.gte(1)), 60000),
  /**
   * As a decider, use the endpoint's native tool calling: the loop's tools go in the request's
   * `tools`, and a `tool_calls` answer is the reply `{"tool", "args"}`.
   */
  toolCalls: z.optional(z.boolean()),
});

export type LlmSkill = z.infer<typeof LlmSkill>;

/** What only the inspector reads of an llm skill, kept off the first screen (./llm.ts is on it). */
export const llmParts = {
  settings: {
    fields: [
      { key: 'baseUrl', type: 'text', label: 'Base URL', optional: false, help: 'An OpenAI-compatible endpoint, e.g. http://localhost:11434/v1' },
      { key: 'model', type: 'text', label: 'Model', optional: false },
      { key: 'apiKeyName', type: 'text', label: 'API key name', help: 'The command line reads the key from this environment variable.' },
      // The key itself, for the name above and the origin of the skill's `calls`.
      { key: 'apiKeyName', type: 'editor', editor: 'apiKey' },
      { key: 'temperature', type: 'number', label: 'Temperature', optional: true },
      { key: 'timeoutMs', type: 'number', label: 'Timeout (ms)' },
    ],
    asked: ['baseUrl', 'model'],
  },
} satisfies SkillParts<LlmSkill>;
