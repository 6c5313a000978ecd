import { skillBase } from '../skillBase.ts';
import { z } from '../zod.ts';
import type { SkillParts } from './types.ts';

/** The methods an http skill may use. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const HttpSkill = z.strictObject({
  type: z.literal('http'),
  ...skillBase,
  url: z.string().check(z.minLength(1)),
  method: z._default(z.enum(HTTP_METHODS), 'GET'),
  headers: z.optional(z.record(z.string(), z.string())),
  body: z.optional(z.string()),
  timeoutMs: z._default(z.int().check(z.gte(1)), 10000),
  recordsPath: z.optional(z.string()),
});

export type HttpSkill = z.infer<typeof HttpSkill>;

/** What only the inspector reads of an http skill, kept off the first screen (./http.ts is on it). */
export const httpParts = {
  settings: {
    fields: [
      { key: 'url', type: 'text', label: 'URL', optional: false, help: '{{args.x}} and {{state.x}} are filled in.' },
      { key: 'method', type: 'select', label: 'Method', options: HTTP_METHODS },
      { key: 'headers', type: 'json', label: 'Headers (JSON)', optional: true },
      { key: 'body', type: 'text', label: 'Body', multiline: true },
      { key: 'timeoutMs', type: 'number', label: 'Timeout (ms)' },
      { key: 'recordsPath', type: 'text', label: 'Records path', help: 'Where the records array is in the answer; empty: the answer itself.' },
    ],
    asked: ['url'],
  },
} satisfies SkillParts<HttpSkill>;
