import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { asMessage, asMessages, diffMessages, messageChannels, tokensIn } from './messages.ts';

/** As the LangGraph server sends a ReAct agent's messages (recorded from the dev server). */
const fromServer = [
  { content: 'Weather in Paris?', additional_kwargs: {}, response_metadata: {}, id: 'h1', type: 'human' },
  {
    id: 'run-1', content: '', additional_kwargs: {}, response_metadata: {}, type: 'ai', invalid_tool_calls: [],
    tool_calls: [{ id: 'call_weather_1', name: 'get_weather', args: { city: 'Paris' }, type: 'tool_call' }],
    usage_metadata: { input_tokens: 42, output_tokens: 12, total_tokens: 54 },
  },
  { status: 'success', content: 'It is 18°C and sunny in Paris.', tool_call_id: 'call_weather_1', name: 'get_weather', id: 't1', type: 'tool' },
  { id: 'run-2', content: 'It is 18°C and sunny in Paris right now.', tool_calls: [], type: 'ai', usage_metadata: { input_tokens: 71, output_tokens: 15, total_tokens: 86 } },
];

describe('messages in a channel, read as a conversation', () => {
  it('reads what a server sends: roles, the tool call and the answer that names it, tokens from usage_metadata', () => {
    const messages = asMessages(fromServer, 'messages');
    expect(messages?.map((message) => message.role)).toEqual(['human', 'ai', 'tool', 'ai']);
    expect(messages?.[1].toolCalls).toEqual([{ id: 'call_weather_1', name: 'get_weather', args: { city: 'Paris' } }]);
    expect(messages?.[2]).toMatchObject({ toolCallId: 'call_weather_1', name: 'get_weather', text: 'It is 18°C and sunny in Paris.' });
    expect(tokensIn(messages ?? [])).toBe(140);
  });

  it('reads LangChain-serialized messages and what people write ({role, content}), content blocks as text', () => {
    const serialized = JSON.parse(JSON.stringify([
      new HumanMessage({ content: 'hi', id: 'a' }),
      new AIMessage({ content: [{ type: 'text', text: 'calling' }, { type: 'image_url', image_url: 'x' }], id: 'b', tool_calls: [{ id: 'c1', name: 'look', args: {} }], usage_metadata: { input_tokens: 3, output_tokens: 4, total_tokens: 7 } }),
      new ToolMessage({ content: 'seen', tool_call_id: 'c1', id: 'c' }),
    ]));
    const messages = asMessages(serialized);
    expect(messages?.map((message) => [message.role, message.text])).toEqual([['human', 'hi'], ['ai', 'calling\n[image_url]'], ['tool', 'seen']]);
    expect(messages?.[1].tokens).toBe(7);
    expect(asMessage({ role: 'user', content: 'hello' })).toMatchObject({ role: 'human', text: 'hello', id: null });
  });

  it('is not fooled by lists that are not messages, or by types named like prototype keys', () => {
    expect(asMessages([{ type: 'ai', content: 'x' }, { note: 'no content' }])).toBeNull();
    expect(asMessages([1, 2])).toBeNull();
    expect(asMessages([])).toBeNull();
    expect(asMessages([], 'messages')).toEqual([]);
    expect(asMessage({ type: 'constructor', content: 'x' })?.role).toBe('other');
    expect(messageChannels({ messages: fromServer, topic: 'tides', list: [1] })).toEqual(['messages']);
  });

  it("a step's change is the messages it added, matched by id (add_messages replaces by id)", () => {
    const all = asMessages(fromServer) ?? [];
    expect(diffMessages(all.slice(0, 2), all)).toEqual({ added: all.slice(2), changed: [], removed: [] });
    const edited = [all[0], { ...all[1], toolCalls: [{ id: 'call_weather_1', name: 'get_weather', args: { city: 'Lyon' } }] }];
    expect(diffMessages(all.slice(0, 2), edited)).toEqual({ added: [], changed: [edited[1]], removed: [] });
    expect(diffMessages(all, all.slice(0, 1)).removed.map((message) => message.id)).toEqual(['run-1', 't1', 'run-2']);
  });

  it('compares lists without ids by position', () => {
    const before = asMessages([{ role: 'user', content: 'a' }]) ?? [];
    const after = asMessages([{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }]) ?? [];
    expect(diffMessages(before, after)).toEqual({ added: [after[1]], changed: [], removed: [] });
  });
});
