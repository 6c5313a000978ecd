/**
 * A run input form from a LangGraph graph's input schema (the server's `/assistants/{id}/schemas`
 * gives it as JSON Schema): one field per top-level property, read into the run's input and checked
 * there, each problem naming its field. The schema is another program's data: it is read, never
 * evaluated, and whatever it says that this form does not know becomes a field typed as JSON.
 */

/** How a field is typed in: the JSON Schema types a person types by hand; anything else as JSON. */
export type InputFieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'strings' | 'json';

export interface InputField {
  name: string;
  kind: InputFieldKind;
  required: boolean;
  /** An enum's values (strings only: any other enum is typed as JSON). */
  options: string[];
  description: string | null;
}

export interface InputForm {
  fields: InputField[];
  /** The input has a `messages` channel of chat messages: the graph is talked to (a chat box). */
  messages: boolean;
}

/** Fields of a form at most: a schema of thousands of properties is typed as JSON. */
export const MAX_FIELDS = 40;
/** Characters of a description shown at most. */
const MAX_DESCRIPTION = 200;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A property's JSON Schema type, its one non-null type when it is nullable. */
const typeOf = (schema: Record<string, unknown>): string | null => {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type) => type !== 'null');
  return types.length === 1 && typeof types[0] === 'string' ? types[0] : null;
};

/**
 * A channel of chat messages: LangGraph marks one with `langgraph_type: "messages"` (MessagesValue,
 * MessagesAnnotation's jsonSchemaExtra); the static parser describes `messages` as a list of message types.
 */
const isMessages = (name: string, schema: Record<string, unknown>) =>
  schema.langgraph_type === 'messages' || (name === 'messages' && typeOf(schema) === 'array' && /message/i.test(JSON.stringify(schema.items ?? '')));

const kindOf = (schema: Record<string, unknown>): Pick<InputField, 'kind' | 'options'> => {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return schema.enum.every((option) => typeof option === 'string') ? { kind: 'enum', options: schema.enum as string[] } : { kind: 'json', options: [] };
  }
  const type = typeOf(schema);
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return { kind: type, options: [] };
  if (type === 'array' && isObject(schema.items) && typeOf(schema.items) === 'string' && !Array.isArray(schema.items.enum)) return { kind: 'strings', options: [] };
  return { kind: 'json', options: [] };
};

/** The form an input schema gives, or null when it is not an object schema with properties. */
export const formOf = (schema: unknown): InputForm | null => {
  if (!isObject(schema) || !isObject(schema.properties)) return null;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === 'string') : []);
  const entries = Object.entries(schema.properties).slice(0, MAX_FIELDS);
  if (entries.length === 0) return null;
  const fields = entries.map(([name, property]): InputField => {
    const described = isObject(property) && typeof property.description === 'string' ? property.description.slice(0, MAX_DESCRIPTION) : null;
    if (!isObject(property)) return { name, kind: 'json', options: [], required: required.has(name), description: described };
    return { name, ...(isMessages(name, property) ? { kind: 'json' as const, options: [] } : kindOf(property)), required: required.has(name), description: described };
  });
  return { fields, messages: entries.some(([name, property]) => isObject(property) && isMessages(name, property)) };
};

/** What the person typed in each field, by name: '' leaves a field out of the input. */
export type FieldTexts = Record<string, string>;

/** A value as its field shows it. */
const textOf = (field: InputField, value: unknown): string => {
  if (value === undefined) return '';
  if (field.kind === 'string' || field.kind === 'enum') return typeof value === 'string' ? value : JSON.stringify(value);
  if (field.kind === 'strings') return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.join('\n') : JSON.stringify(value);
  return JSON.stringify(value, null, field.kind === 'json' ? 2 : undefined);
};

/** An input's values as the form's fields show them (for the form after the JSON was edited). */
export const textsOf = (form: InputForm, value: Record<string, unknown>): FieldTexts =>
  Object.fromEntries(form.fields.map((field) => [field.name, textOf(field, Object.hasOwn(value, field.name) ? value[field.name] : undefined)]));

/** Why a value is not what its field takes, or null. */
const valueProblem = (field: InputField, value: unknown): string | null => {
  const { kind } = field;
  if (kind === 'string' && typeof value !== 'string') return 'expected text';
  if (kind === 'number' && (typeof value !== 'number' || !Number.isFinite(value))) return 'expected a number, e.g. 3 or 0.5';
  if (kind === 'integer' && !Number.isInteger(value)) return 'expected a whole number, e.g. 3';
  if (kind === 'boolean' && typeof value !== 'boolean') return 'expected true or false';
  if (kind === 'enum' && !field.options.includes(value as string)) return `expected one of ${field.options.map((option) => JSON.stringify(option)).join(', ')}`;
  if (kind === 'strings' && !(Array.isArray(value) && value.every((item) => typeof item === 'string'))) return 'expected a list of texts';
  return null;
};

/** Why an input is not what the form's schema takes (the first problem, naming its field), or null. */
export const inputProblem = (form: InputForm, value: Record<string, unknown>): string | null => {
  for (const field of form.fields) {
    if (!Object.hasOwn(value, field.name)) {
      if (field.required) return `${field.name}: required`;
      continue;
    }
    const problem = valueProblem(field, value[field.name]);
    if (problem) return `${field.name}: ${problem}`;
  }
  return null;
};

/** A field's text as its value, or why it is not one. */
const readText = (field: InputField, text: string): { value: unknown } | { error: string } => {
  if (field.kind === 'string' || field.kind === 'enum') return { value: text };
  if (field.kind === 'strings') return { value: text.split('\n').filter((line) => line.trim() !== '') };
  if (field.kind === 'number' || field.kind === 'integer') {
    const number = Number(text.trim());
    return text.trim() === '' || Number.isNaN(number) ? { error: `"${text}" is not a number` } : { value: number };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (problem) {
    return { error: `not JSON: ${(problem as Error).message}` };
  }
};

/**
 * The input the form's texts make (with `extra`, what the JSON holds beyond the form's fields), or
 * the first problem, naming its field.
 */
export const inputOf = (form: InputForm, texts: FieldTexts, extra: Record<string, unknown> = {}): { value: Record<string, unknown> } | { error: string } => {
  // Built as entries: a property the schema names `__proto__` stays a property of the input.
  const entries: [string, unknown][] = [];
  for (const field of form.fields) {
    const text = Object.hasOwn(texts, field.name) ? texts[field.name] : '';
    if (text === '') continue;
    const read = readText(field, text);
    if ('error' in read) return { error: `${field.name}: ${read.error}` };
    entries.push([field.name, read.value]);
  }
  const value = Object.fromEntries([...Object.entries(extraOf(form, extra)), ...entries]);
  const problem = inputProblem(form, value);
  return problem ? { error: problem } : { value };
};

/** What an input holds beyond the form's fields: kept as typed when the form is edited. */
export const extraOf = (form: InputForm, value: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).filter(([name]) => !form.fields.some((field) => field.name === name)));

/** A chat box's message as the run's input: LangGraph's messages reducer appends it to the thread's conversation. */
export const chatInput = (text: string) => ({ messages: [{ role: 'user', content: text }] });
