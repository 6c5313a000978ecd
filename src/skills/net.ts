/**
 * One exchange with a service, bounded: the whole answer (headers and body) must arrive within
 * the time limit, and the body within a size limit. Whatever a file asks, the limit is clamped.
 */
import { readAtMost } from '../graph/bytes.ts';
import { originOf } from '../graph/hosts.ts';
import { SKILL_LIMITS } from '../graph/index.ts';
import type { SkillResult } from './types.ts';

export type Exchange =
  | { type: 'answer'; status: number; ok: boolean; text: string }
  | { type: 'timeout'; ms: number }
  | { type: 'refused'; message: string }
  | { type: 'failed'; message: string };

/** Thrown by a fetch that will not contact a host (the person did not allow it): no request left. */
export class RequestRefused extends Error {}

/**
 * A fetch that sends requests only to these origins, the ones the person allowed before the run (in
 * the page's hosts question, on the command line with `--host`): any other address a skill builds,
 * from the state say, is refused before anything is sent. `how` says how to allow one, when known.
 */
export const fetchOnlyTo = (origins: ReadonlySet<string>, fetchImpl: typeof fetch = (...args) => fetch(...args), how?: (origin: string) => string): typeof fetch =>
  (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const origin = originOf(url);
    if (!origin || !origins.has(origin))
      return Promise.reject(new RequestRefused(`${origin ?? url} was not allowed for this run: requests go only to the hosts allowed before it started${origin && how ? ` (${how(origin)})` : ''}`));
    return fetchImpl(input, init);
  };

/** A time limit a timer can keep: at least 1 ms, at most `SKILL_LIMITS.maxTimeoutMs` (a larger one would fire at once). */
export const clampTimeout = (ms: number) => Math.min(SKILL_LIMITS.maxTimeoutMs, Math.max(1, Number.isFinite(ms) ? ms : SKILL_LIMITS.maxTimeoutMs));

const tooLarge = `the answer is larger than ${SKILL_LIMITS.maxAnswerBytes / 1_000_000} MB`;

/** The body as text, or null once it passes the size limit (the rest is not read). */
const readBody = async (response: Response): Promise<string | null> => {
  if (!response.body) return response.text();
  const bytes = await readAtMost(response.body, SKILL_LIMITS.maxAnswerBytes);
  return bytes && new TextDecoder().decode(bytes);
};

/** Redirects followed within the origin before the exchange is given up. */
export const MAX_REDIRECTS = 5;

/** The request a redirect asks for (the fetch standard's rule): 303, and 301/302 of a POST, become a GET without a body. */
const redirected = (init: RequestInit, status: number): RequestInit => {
  const method = (init.method ?? 'GET').toUpperCase();
  return status === 303 && method !== 'HEAD' || ((status === 301 || status === 302) && method === 'POST') ? { ...init, method: 'GET', body: undefined } : init;
};

/**
 * The answer at `url`, following redirects only within its origin: a service cannot send a call
 * (its body, its key) to a host the person never listed or allowed. A page's fetch does not show
 * where a redirect leads (an opaque redirect), so there a redirect is refused.
 */
const fetchWithinOrigin = async (fetchImpl: typeof fetch, url: string, init: RequestInit): Promise<Response | Exchange> => {
  const origin = originOf(url);
  let target = url;
  let request: RequestInit = { ...init, redirect: 'manual' };
  for (let hop = 0; ; hop += 1) {
    const response = await fetchImpl(target, request);
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (response.type !== 'opaqueredirect' && location === null) return response;
    void response.body?.cancel().catch(() => undefined);
    if (location === null) return { type: 'failed', message: `${origin} answered with a redirect, which a page cannot follow safely (it does not say where to)` };
    const next = new URL(location, target).href;
    if (originOf(next) !== origin) return { type: 'failed', message: `${origin} redirected to ${originOf(next) ?? next}: redirects are followed only within ${origin}` };
    if (hop === MAX_REDIRECTS) return { type: 'failed', message: `more than ${MAX_REDIRECTS} redirects within ${origin}` };
    request = redirected(request, response.status);
    target = next;
  }
};

export const exchange = async (fetchImpl: typeof fetch, url: string, init: RequestInit, timeoutMs: number): Promise<Exchange> => {
  const ms = clampTimeout(timeoutMs);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Settled before the abort, so that the request failing because of the abort still reads as a timeout.
  const deadline = new Promise<Exchange>((resolve) => {
    timer = setTimeout(() => {
      resolve({ type: 'timeout', ms });
      controller.abort();
    }, ms);
  });
  const request = (async (): Promise<Exchange> => {
    try {
      const response = await fetchWithinOrigin(fetchImpl, url, { ...init, signal: controller.signal });
      if (!(response instanceof Response)) return response;
      if (!response.ok) {
        void response.body?.cancel().catch(() => undefined);
        return { type: 'answer', status: response.status, ok: false, text: '' };
      }
      const text = await readBody(response);
      return text === null ? { type: 'failed', message: tooLarge } : { type: 'answer', status: response.status, ok: true, text };
    } catch (error) {
      if (controller.signal.aborted) return { type: 'timeout', ms };
      if (error instanceof RequestRefused) return { type: 'refused', message: error.message };
      return { type: 'failed', message: `network failure: ${(error as Error).message}` };
    }
  })();
  try {
    return await Promise.race([request, deadline]);
  } finally {
    clearTimeout(timer);
  }
};

export const failureOfStatus = (status: number): SkillResult['outcome'] => (status === 401 || status === 403 ? 'permission_denied' : 'error');

/** The failed result of an exchange that gave no usable answer, or null when it did. */
export const failureOf = (answer: Exchange, from: string): { outcome: SkillResult['outcome']; error: string } | null => {
  switch (answer.type) {
    case 'timeout':
      return { outcome: 'timeout', error: `no complete answer within ${answer.ms} ms` };
    case 'refused':
      return { outcome: 'permission_denied', error: answer.message };
    case 'failed':
      return { outcome: 'error', error: answer.message };
    case 'answer':
      return answer.ok ? null : { outcome: failureOfStatus(answer.status), error: `HTTP ${answer.status} from ${from}` };
  }
};
