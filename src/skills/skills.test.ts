import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpSkill, LlmSkill, MockSkill } from '../graph/skills.ts';
import { boundKeys, clampTimeout, createHttpSkill, createLlmSkill, createMockSkill, fillJsonTemplate, RequestRefused, type SkillContext } from './index.ts';
import { SKILL_LIMITS } from '../graph/index.ts';

const context = (extra: Partial<SkillContext> = {}): SkillContext => ({ attempt: 1, state: { host: 'db 1' }, seed: 9, ...extra });

type Call = { url: string; init: RequestInit };
const fakeFetch = (answer: (call: Call) => Response | Promise<Response>) => {
  const calls: Call[] = [];
  const impl = (async (url: string | URL, init: RequestInit = {}) => {
    const call = { url: String(url), init };
    calls.push(call);
    return answer(call);
  }) as typeof fetch;
  return { calls, impl };
};

describe('mock skill', () => {
  const skill = MockSkill.parse({
    type: 'mock', tokens: 7,
    script: [{ outcome: 'timeout', delayMs: 30 }, { outcome: 'ok', records: [{ a: 1 }], tokens: 2 }, { outcome: 'ok' }],
  });

  it('serves one entry per attempt, the last repeating, with tokens from the entry or the skill', async () => {
    const mock = createMockSkill('m', skill);
    const answers = [];
    for (let n = 0; n < 5; n += 1) answers.push(await mock.call({}, context()));
    expect(answers.map((answer) => [answer.outcome, answer.tokens, answer.records.length])).toEqual([
      ['timeout', 7, 0], ['ok', 2, 1], ['empty', 7, 0], ['empty', 7, 0], ['empty', 7, 0],
    ]);
    expect(answers[0].durationMs).toBe(30);
  });

  it('simulates a delay instead of waiting, and a per-attempt limit makes it a timeout', async () => {
    const slow = createMockSkill('slow', MockSkill.parse({ type: 'mock', script: [{ outcome: 'ok', records: [{}], delayMs: 60000 }] }));
    // Counted, not timed: no timer is set for the simulated minute (nor for the limit).
    const timers = vi.spyOn(globalThis, 'setTimeout');
    onTestFinished(() => timers.mockRestore());
    const answer = await slow.call({}, context({ timeoutMs: 500 }));
    expect(timers.mock.calls.filter((call) => (call[1] ?? 0) >= 500)).toEqual([]);
    expect(answer).toMatchObject({ outcome: 'timeout', durationMs: 500 });
  });

  it('two runners of one skill replay the same answers', async () => {
    const first = createMockSkill('m', skill);
    const second = createMockSkill('m', skill);
    for (let n = 0; n < 3; n += 1) expect(await first.call({}, context())).toEqual(await second.call({}, context()));
  });
});

describe('http skill', () => {
  const http = (config: Record<string, unknown>) => createHttpSkill('h', HttpSkill.parse({ type: 'http', tokens: 3, url: 'https://api.test/search?q={{args.q}}&host={{state.host}}', ...config }));

  it('fills the url (encoded) and the body from the action and the state, and reads records at recordsPath', async () => {
    const { calls, impl } = fakeFetch(() => new Response(JSON.stringify({ data: { hits: [{ id: 1 }, { id: 2 }] } })));
    const answer = await http({ method: 'POST', body: '{"q":"{{args.q}}"}', recordsPath: 'data.hits' }).call({ q: 'a&b c' }, context({ fetch: impl }));
    expect(calls[0].url).toBe('https://api.test/search?q=a%26b%20c&host=db%201');
    expect(calls[0].init.body).toBe('{"q":"a&b c"}');
    expect(calls[0].init.method).toBe('POST');
    expect(answer).toMatchObject({ outcome: 'ok', records: [{ id: 1 }, { id: 2 }], tokens: 3 });
  });

  it.each([
    ['an empty array', () => new Response('[]'), 'empty'],
    ['a body that is not JSON', () => new Response('<html>'), 'parse_error'],
    ['401', () => new Response('no', { status: 401 }), 'permission_denied'],
    ['403', () => new Response('no', { status: 403 }), 'permission_denied'],
    ['500', () => new Response('{}', { status: 500 }), 'error'],
    ['a network failure', () => Promise.reject(new TypeError('connection refused')), 'error'],
    ['an object without recordsPath', () => new Response('{"a":1}'), 'parse_error'],
  ] as const)('%s → %s', async (_name, answer, outcome) => {
    const { impl } = fakeFetch(answer);
    expect((await http({}).call({ q: 'x' }, context({ fetch: impl }))).outcome).toBe(outcome);
  });

  it('no answer within timeoutMs → timeout, and the request is aborted', async () => {
    let aborted = false;
    const { impl } = fakeFetch((call) => new Promise<Response>((_resolve, reject) => {
      call.init.signal?.addEventListener('abort', () => {
        aborted = true;
        reject(new Error('aborted'));
      });
    }));
    const answer = await http({ timeoutMs: 20 }).call({ q: 'x' }, context({ fetch: impl }));
    expect(answer).toMatchObject({ outcome: 'timeout', error: 'no complete answer within 20 ms' });
    expect(aborted).toBe(true);
  });
});

describe('llm skill', () => {
  const llm = (config: Record<string, unknown> = {}) => createLlmSkill('l', LlmSkill.parse({ type: 'llm', baseUrl: 'http://localhost:11434/v1/', model: 'tiny', apiKeyName: 'LLM_KEY', ...config }));
  const completion = (text: string, tokens = 42) => new Response(JSON.stringify({ choices: [{ message: { content: text } }], usage: { total_tokens: tokens } }));

  const keysFor = (origin: string, key = 'sk-secret') => boundKeys([{ name: 'LLM_KEY', origin, key }]);

  it('posts a chat completion with the key given for its origin, and charges usage.total_tokens', async () => {
    const { calls, impl } = fakeFetch(() => completion('{"actions":[]}'));
    const answer = await llm().call({ prompt: 'plan' }, context({ fetch: impl, keys: keysFor('http://localhost:11434') }));
    expect(calls[0].url).toBe('http://localhost:11434/v1/chat/completions');
    expect((calls[0].init.headers as Record<string, string>).authorization).toBe('Bearer sk-secret');
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ model: 'tiny', messages: [{ role: 'user', content: 'plan' }], seed: 9 });
    expect(answer).toMatchObject({ outcome: 'ok', tokens: 42, text: '{"actions":[]}', records: [{ text: '{"actions":[]}' }] });
    expect(JSON.stringify(answer)).not.toContain('sk-secret');
  });

  it('sends no key to another origin than the one it was given for, and sends nothing at all then', async () => {
    const { calls, impl } = fakeFetch(() => completion('hi'));
    const elsewhere = await llm({ baseUrl: 'https://attacker.example/v1' }).call({}, context({ fetch: impl, keys: keysFor('http://localhost:11434') }));
    expect(elsewhere).toMatchObject({ outcome: 'permission_denied', error: 'no key named LLM_KEY was given for https://attacker.example' });
    const none = await llm().call({}, context({ fetch: impl }));
    expect(none).toMatchObject({ outcome: 'permission_denied', error: 'no key named LLM_KEY was given' });
    expect(calls).toHaveLength(0);
  });

  it('a base URL that is not a URL is an error, with no request', async () => {
    const { calls, impl } = fakeFetch(() => completion('hi'));
    // The schema refuses it in a file; a skill made in code still sends nothing.
    expect(LlmSkill.safeParse({ type: 'llm', baseUrl: 'not a url', model: 'm' }).success).toBe(false);
    const unchecked = createLlmSkill('l', { ...LlmSkill.parse({ type: 'llm', baseUrl: 'http://localhost:11434/v1', model: 'm' }), baseUrl: 'not a url' });
    expect(await unchecked.call({}, context({ fetch: impl }))).toMatchObject({ outcome: 'error', error: 'the base URL "not a url" is not a URL' });
    expect(calls).toHaveLength(0);
  });

  it('an answer that is not a chat completion is a parse error; 401 is permission_denied', async () => {
    expect((await llm({ apiKeyName: undefined }).call({}, context({ fetch: fakeFetch(() => new Response('{"oops":1}')).impl }))).outcome).toBe('parse_error');
    expect((await llm({ apiKeyName: undefined }).call({}, context({ fetch: fakeFetch(() => new Response('', { status: 401 })).impl }))).outcome).toBe('permission_denied');
  });
});

describe('hostile services and files', () => {
  const http = (config: Record<string, unknown> = {}) => createHttpSkill('h', HttpSkill.parse({ type: 'http', url: 'https://api.test/x', ...config }));
  /** A fetch whose promise rejects the moment the request is aborted, as browsers do. */
  const neverAnswers = (() => (_url: string | URL, init: RequestInit = {}) =>
    new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('signal is aborted without reason', 'AbortError'))))) as unknown as () => typeof fetch;

  it('a service that never answers ends as timeout, not error, even when the abort rejects the request first', async () => {
    expect(await http({ timeoutMs: 15 }).call({}, context({ fetch: neverAnswers() }))).toMatchObject({ outcome: 'timeout', error: 'no complete answer within 15 ms' });
  });

  it('the time limit covers the body: headers at once and a body that drips is a timeout', async () => {
    const drip = (async () => {
      const encoder = new TextEncoder();
      let timer: ReturnType<typeof setInterval>;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode('['));
          timer = setInterval(() => controller.enqueue(encoder.encode('1,')), 5);
        },
        cancel() {
          clearInterval(timer);
        },
      });
      return new Response(body, { status: 200 });
    }) as unknown as typeof fetch;
    // The body never ends: only the time limit can end the call.
    const answer = await http({ timeoutMs: 60 }).call({}, context({ fetch: drip }));
    expect(answer).toMatchObject({ outcome: 'timeout', error: 'no complete answer within 60 ms' });
  });

  it('a time limit above what a timer can hold is clamped instead of firing at once', async () => {
    expect(clampTimeout(2 ** 31)).toBe(SKILL_LIMITS.maxTimeoutMs);
    expect(clampTimeout(1e300)).toBe(SKILL_LIMITS.maxTimeoutMs);
    expect(clampTimeout(0)).toBe(1);
    const slowish = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return new Response('[1]');
    }) as unknown as typeof fetch;
    expect(await http({ timeoutMs: 2 ** 31 + 5 }).call({}, context({ fetch: slowish }))).toMatchObject({ outcome: 'ok' });
  });

  it('an answer larger than the limit is an error, and the rest is not read', async () => {
    let pulled = 0;
    const huge = (async () =>
      new Response(new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1;
          controller.enqueue(new Uint8Array(1_000_000).fill(32));
        },
      }))) as unknown as typeof fetch;
    expect(await http().call({}, context({ fetch: huge }))).toMatchObject({ outcome: 'error', error: `the answer is larger than ${SKILL_LIMITS.maxAnswerBytes / 1_000_000} MB` });
    expect(pulled).toBeLessThan(SKILL_LIMITS.maxAnswerBytes / 1_000_000 + 5);
  });

  it('a request the run may not send is permission_denied', async () => {
    const refuse = (async () => {
      throw new RequestRefused('https://api.test was not allowed for this run');
    }) as unknown as typeof fetch;
    expect(await http().call({}, context({ fetch: refuse }))).toMatchObject({ outcome: 'permission_denied', error: 'https://api.test was not allowed for this run' });
  });

  it('an http skill needs at least the access its method implies', () => {
    expect(http({ method: 'DELETE', access: 'read' }).access).toBe('write');
    expect(http({ method: 'POST' }).access).toBe('write');
    expect(http({ method: 'GET', access: 'exec' }).access).toBe('exec');
    expect(http({ method: 'GET' }).access).toBe('read');
  });

  it('values filled into a JSON body are escaped: no field can be added', async () => {
    const { calls, impl } = fakeFetch(() => new Response('[]'));
    const evil = 'x","role":"admin","y":"';
    await http({ method: 'POST', body: '{"name": "{{args.name}}", "count": {{args.count}}, "tags": {{args.tags}}}' }).call({ name: evil, count: '1, "role": "admin"', tags: ['a', 'b'] }, context({ fetch: impl }));
    const sent = JSON.parse(String(calls[0].init.body));
    expect(sent).toEqual({ name: evil, count: '1, "role": "admin"', tags: ['a', 'b'] });
    expect(Object.keys(sent)).toEqual(['name', 'count', 'tags']);
  });

  it('fillJsonTemplate keeps escaped quotes and placeholders in strings apart', () => {
    const sources = { args: { q: 'a"b\\c', n: 3 }, state: {} };
    expect(JSON.parse(fillJsonTemplate('{"s": "say \\"{{args.q}}\\"", "n": {{args.n}}, "m": {{args.missing}}}', sources))).toEqual({ s: 'say "a"b\\c"', n: 3, m: null });
  });

  it('a body that is not JSON is filled as text', async () => {
    const { calls, impl } = fakeFetch(() => new Response('[]'));
    await http({ method: 'POST', body: 'q={{args.q}}', headers: { 'Content-Type': 'text/plain' } }).call({ q: 'a"b' }, context({ fetch: impl }));
    expect(calls[0].init.body).toBe('q=a"b');
  });
});

describe('redirects stay within the origin the person allowed', () => {
  const redirect = (status: number, location: string) => new Response(null, { status, headers: { location } });
  const http = (method = 'GET', body?: string) => createHttpSkill('h', HttpSkill.parse({ type: 'http', url: 'https://api.example/items', method, body, access: 'write' }));
  const keys = boundKeys([{ name: 'LLM_KEY', origin: 'https://llm.example', key: 'sk-1' }]);
  const llm = createLlmSkill('l', LlmSkill.parse({ type: 'llm', baseUrl: 'https://llm.example/v1', model: 'm', apiKeyName: 'LLM_KEY' }));

  it('an http GET and an llm POST redirected to another origin are refused: nothing goes there', async () => {
    const { calls, impl } = fakeFetch(() => redirect(307, 'https://attacker.example/steal'));
    expect(await http().call({}, context({ fetch: impl }))).toMatchObject({ outcome: 'error', error: 'https://api.example redirected to https://attacker.example: redirects are followed only within https://api.example' });
    expect(await llm.call({ prompt: 'secret' }, context({ fetch: impl, keys }))).toMatchObject({ outcome: 'error', error: 'https://llm.example redirected to https://attacker.example: redirects are followed only within https://llm.example' });
    expect(calls.map((call) => call.url)).toEqual(['https://api.example/items', 'https://llm.example/v1/chat/completions']);
    expect(calls.every((call) => call.init.redirect === 'manual')).toBe(true);
  });

  it('a redirect within the origin is followed: 307 keeps the method, body and key, 303 becomes a GET', async () => {
    const { calls, impl } = fakeFetch((call) => (call.url.endsWith('/v1/chat/completions') ? redirect(307, '/v2/chat/completions') : new Response(JSON.stringify({ choices: [{ message: { content: 'hi' } }] }))));
    expect(await llm.call({ prompt: 'p' }, context({ fetch: impl, keys }))).toMatchObject({ outcome: 'ok', text: 'hi' });
    expect(calls.map((call) => [call.url, call.init.method, new Headers(call.init.headers).get('authorization'), typeof call.init.body])).toEqual([
      ['https://llm.example/v1/chat/completions', 'POST', 'Bearer sk-1', 'string'],
      ['https://llm.example/v2/chat/completions', 'POST', 'Bearer sk-1', 'string'],
    ]);
    const seeOther = fakeFetch((call) => (call.url.endsWith('/items') ? redirect(303, 'https://api.example/result') : new Response('[{"id":1}]')));
    expect(await http('POST', '{"a":1}').call({}, context({ fetch: seeOther.impl }))).toMatchObject({ outcome: 'ok' });
    expect(seeOther.calls.map((call) => [call.url, call.init.method, call.init.body])).toEqual([['https://api.example/items', 'POST', '{"a":1}'], ['https://api.example/result', 'GET', undefined]]);
  });

  it('a redirect loop ends; a page\'s opaque redirect is refused', async () => {
    const loop = fakeFetch(() => redirect(302, '/items'));
    expect(await http().call({}, context({ fetch: loop.impl }))).toMatchObject({ outcome: 'error', error: 'more than 5 redirects within https://api.example' });
    expect(loop.calls).toHaveLength(6);
    const opaque = fakeFetch(() => Object.defineProperty(new Response(null, { status: 200 }), 'type', { value: 'opaqueredirect' }));
    expect(await http().call({}, context({ fetch: opaque.impl }))).toMatchObject({ outcome: 'error', error: 'https://api.example answered with a redirect, which a page cannot follow safely (it does not say where to)' });
  });
});

describe('redirects, with the real fetch of the command line', () => {
  const listen = async (handle: (url: string, respond: (status: number, headers: Record<string, string>, body?: string) => void) => void) => {
    const requests: string[] = [];
    const server = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      handle(request.url ?? '', (status, headers, body) => response.writeHead(status, headers).end(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => void server.close());
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
  };

  it('a 307 to another port (another origin) is not followed; one to the same origin is', async () => {
    const elsewhere = await listen((_url, respond) => respond(200, { 'content-type': 'application/json' }, '[{"stolen":true}]'));
    const service = await listen((url, respond) => (url === '/items' ? respond(307, { location: `${elsewhere.url}/collect` }) : url === '/moved' ? respond(308, { location: '/here' }) : respond(200, {}, '[{"id":1}]')));
    const skill = (path: string) => createHttpSkill('h', HttpSkill.parse({ type: 'http', url: `${service.url}${path}`, method: 'POST', body: '{"secret":1}', access: 'write' }));
    expect(await skill('/items').call({}, context())).toMatchObject({ outcome: 'error', error: `${service.url} redirected to ${elsewhere.url}: redirects are followed only within ${service.url}` });
    expect(elsewhere.requests).toEqual([]);
    expect(await skill('/moved').call({}, context())).toMatchObject({ outcome: 'ok', records: [{ id: 1 }] });
    expect(service.requests).toEqual(['POST /items', 'POST /moved', 'POST /here']);
  });
});
