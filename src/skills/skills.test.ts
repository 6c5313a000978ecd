import { describe, expect, it } from 'vitest';
import { HttpSkill, LlmSkill, MockSkill } from '../graph/index.ts';
import { createHttpSkill, createLlmSkill, createMockSkill, type SkillContext } from './index.ts';

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
    const started = Date.now();
    const answer = await slow.call({}, context({ timeoutMs: 500 }));
    expect(Date.now() - started).toBeLessThan(1000);
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
    expect(answer).toMatchObject({ outcome: 'timeout', error: 'no answer within 20 ms' });
    expect(aborted).toBe(true);
  });
});

describe('llm skill', () => {
  const llm = (config: Record<string, unknown> = {}) => createLlmSkill('l', LlmSkill.parse({ type: 'llm', baseUrl: 'http://localhost:11434/v1/', model: 'tiny', apiKeyName: 'LLM_KEY', ...config }));
  const completion = (text: string, tokens = 42) => new Response(JSON.stringify({ choices: [{ message: { content: text } }], usage: { total_tokens: tokens } }));

  it('posts a chat completion with the key from memory, and charges usage.total_tokens', async () => {
    const { calls, impl } = fakeFetch(() => completion('{"actions":[]}'));
    const answer = await llm().call({ prompt: 'plan' }, context({ fetch: impl, secrets: { LLM_KEY: 'sk-secret' } }));
    expect(calls[0].url).toBe('http://localhost:11434/v1/chat/completions');
    expect((calls[0].init.headers as Record<string, string>).authorization).toBe('Bearer sk-secret');
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ model: 'tiny', messages: [{ role: 'user', content: 'plan' }], seed: 9 });
    expect(answer).toMatchObject({ outcome: 'ok', tokens: 42, text: '{"actions":[]}', records: [{ text: '{"actions":[]}' }] });
    expect(JSON.stringify(answer)).not.toContain('sk-secret');
  });

  it('reads the key from the environment on the command line, and refuses without one', async () => {
    const { calls, impl } = fakeFetch(() => completion('hi'));
    await llm().call({}, context({ fetch: impl, env: { LLM_KEY: 'from-env' } }));
    expect((calls[0].init.headers as Record<string, string>).authorization).toBe('Bearer from-env');
    const refused = await llm().call({}, context({ fetch: impl }));
    expect(refused).toMatchObject({ outcome: 'permission_denied', error: 'no key named LLM_KEY was given' });
    expect(calls).toHaveLength(1);
  });

  it('an answer that is not a chat completion is a parse error; 401 is permission_denied', async () => {
    expect((await llm({ apiKeyName: undefined }).call({}, context({ fetch: fakeFetch(() => new Response('{"oops":1}')).impl }))).outcome).toBe('parse_error');
    expect((await llm({ apiKeyName: undefined }).call({}, context({ fetch: fakeFetch(() => new Response('', { status: 401 })).impl }))).outcome).toBe('permission_denied');
  });
});
