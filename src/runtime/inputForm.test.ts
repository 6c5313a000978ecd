import { describe, expect, it } from 'vitest';
import { chatInput, extraOf, formOf, inputOf, inputProblem, MAX_FIELDS, textsOf } from './inputForm.ts';

/** As LangGraph's StateSchema gives it (`getInputJsonSchema`), MessagesValue included. */
const schema = {
  type: 'object',
  properties: {
    messages: { langgraph_type: 'messages', description: 'A list of chat messages' },
    topic: { type: 'string', description: 'What to write about' },
    count: { type: 'integer', default: 2 },
    ratio: { type: ['number', 'null'] },
    tone: { type: 'string', enum: ['dry', 'warm'] },
    draft: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    meta: { type: 'object', properties: { a: { type: 'string' } } },
  },
  required: ['topic'],
};

describe('formOf', () => {
  it('makes a field per top-level property, typed as a person types it', () => {
    const form = formOf(schema);
    expect(form?.messages).toBe(true);
    expect(form?.fields.map((field) => [field.name, field.kind, field.required])).toEqual([
      ['messages', 'json', false], ['topic', 'string', true], ['count', 'integer', false], ['ratio', 'number', false],
      ['tone', 'enum', false], ['draft', 'boolean', false], ['tags', 'strings', false], ['meta', 'json', false],
    ]);
    expect(form?.fields[4].options).toEqual(['dry', 'warm']);
    expect(form?.fields[1].description).toBe('What to write about');
  });

  it('tells a messages channel the static parser describes (a list of message types)', () => {
    expect(formOf({ type: 'object', properties: { messages: { type: 'array', items: { $ref: '#/definitions/BaseMessage' } } } })?.messages).toBe(true);
    expect(formOf({ type: 'object', properties: { notes: { type: 'array', items: { type: 'string' } } } })?.messages).toBe(false);
  });

  it('has no form for what is not an object schema, and caps a huge one', () => {
    for (const bad of [null, 'x', [], { type: 'object' }, { properties: [] }, { properties: {} }]) expect(formOf(bad)).toBeNull();
    const huge = { properties: Object.fromEntries(Array.from({ length: 500 }, (_, at) => [`f${at}`, { type: 'string' }])) };
    expect(formOf(huge)?.fields).toHaveLength(MAX_FIELDS);
  });

  it('types what it does not know as JSON, evaluating nothing', () => {
    const form = formOf({ properties: { odd: { type: 'string', enum: [1, 2] }, weird: { anyOf: [{ type: 'string' }] }, code: '() => 1', __proto__x: 5 } });
    expect(form?.fields.map((field) => field.kind)).toEqual(['json', 'json', 'json', 'json']);
  });
});

describe('inputOf and textsOf', () => {
  const form = formOf(schema)!;

  it('reads each field into the input, leaving empty fields out', () => {
    const read = inputOf(form, { topic: 'rain', count: '3', ratio: '0.5', tone: 'warm', draft: 'true', tags: 'a\n\nb', meta: '{"a":"x"}', messages: '' });
    expect(read).toEqual({ value: { topic: 'rain', count: 3, ratio: 0.5, tone: 'warm', draft: true, tags: ['a', 'b'], meta: { a: 'x' } } });
  });

  it('names the field a problem is in', () => {
    expect(inputOf(form, { topic: 'rain', count: 'three' })).toEqual({ error: 'count: "three" is not a number' });
    expect(inputOf(form, { topic: 'rain', count: '2.5' })).toEqual({ error: 'count: expected a whole number, e.g. 3' });
    expect(inputOf(form, { topic: 'rain', meta: '{a' })).toMatchObject({ error: expect.stringMatching(/^meta: not JSON/) });
    expect(inputOf(form, { count: '2' })).toEqual({ error: 'topic: required' });
  });

  it('checks JSON typed by hand the same way', () => {
    expect(inputProblem(form, { topic: 'x', tone: 'cold' })).toBe('tone: expected one of "dry", "warm"');
    expect(inputProblem(form, { topic: 'x', draft: 'yes' })).toBe('draft: expected true or false');
    expect(inputProblem(form, { topic: 'x', tags: [1] })).toBe('tags: expected a list of texts');
    expect(inputProblem(form, { topic: 'x', ratio: 1 })).toBeNull();
  });

  it('keeps the form and the JSON in step: the JSON read back into fields, what the form has no field for kept', () => {
    const value = { topic: 'rain', count: 3, tags: ['a', 'b'], draft: false, other: 1 };
    const texts = textsOf(form, value);
    expect(texts).toMatchObject({ topic: 'rain', count: '3', tags: 'a\nb', draft: 'false', tone: '' });
    expect(inputOf(form, texts, extraOf(form, value))).toEqual({ value });
  });

  it('keeps a property named __proto__ an input property', () => {
    const odd = formOf({ properties: JSON.parse('{"__proto__": {"type": "string"}}') })!;
    const read = inputOf(odd, JSON.parse('{"__proto__": "x"}'));
    expect('value' in read && Object.hasOwn(read.value, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf('value' in read ? read.value : null)).toBe(Object.prototype);
  });
});

it('a chat message is a user message appended to the conversation', () => {
  expect(chatInput('Hello')).toEqual({ messages: [{ role: 'user', content: 'Hello' }] });
});
