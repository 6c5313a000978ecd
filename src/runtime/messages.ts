/**
 * LangChain messages in a LangGraph channel, read as a conversation: as a server sends them
 * (`{type: "ai", content, tool_calls, usage_metadata, …}`), as people write them (`{role, content}`),
 * or serialized by LangChain (`{lc: 1, type: "constructor", id: [… "AIMessage"], kwargs}`). Pure,
 * and careful: a message is another program's data, read field by field.
 */

export type MessageRole = 'human' | 'ai' | 'tool' | 'system' | 'other';

export interface ToolCall {
  id: string | null;
  name: string;
  args: unknown;
}

export interface ChatMessage {
  role: MessageRole;
  /** The type the message gave itself (`human`, `AIMessageChunk`, `developer`…). */
  type: string;
  id: string | null;
  /** The text of its content (content blocks that are not text are named in brackets). */
  text: string;
  toolCalls: ToolCall[];
  /** A tool message's answer to this call. */
  toolCallId: string | null;
  name: string | null;
  /** usage_metadata.total_tokens (or input + output) of an ai message. */
  tokens: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

const ROLES: Record<string, MessageRole> = {
  human: 'human', user: 'human', humanmessage: 'human', humanmessagechunk: 'human',
  ai: 'ai', assistant: 'ai', aimessage: 'ai', aimessagechunk: 'ai',
  tool: 'tool', toolmessage: 'tool', toolmessagechunk: 'tool', function: 'tool',
  system: 'system', developer: 'system', systemmessage: 'system', systemmessagechunk: 'system',
};

/** The fields of a message, and the type it gives itself, in whichever of the three forms it comes. */
const fieldsOf = (value: unknown): { type: string; fields: Record<string, unknown> } | null => {
  if (!isRecord(value)) return null;
  if (value.lc === 1 && value.type === 'constructor' && Array.isArray(value.id) && isRecord(value.kwargs)) {
    const type = text(value.id.at(-1));
    return type && /Message(Chunk)?$/.test(type) ? { type, fields: value.kwargs } : null;
  }
  const type = text(value.type) ?? text(value.role);
  if (type === null || !('content' in value)) return null;
  return { type, fields: value };
};

const contentText = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return content
    .map((block) => (typeof block === 'string' ? block : isRecord(block) ? (block.type === 'text' && typeof block.text === 'string' ? block.text : `[${String(block.type ?? 'block')}]`) : ''))
    .filter(Boolean)
    .join('\n');
};

const tokensOf = (usage: unknown): number => {
  if (!isRecord(usage)) return 0;
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);
  return count(usage.total_tokens) || count(usage.input_tokens) + count(usage.output_tokens);
};

/** One message as a conversation shows it, or null when the value is not a message. */
export const asMessage = (value: unknown): ChatMessage | null => {
  const found = fieldsOf(value);
  if (!found) return null;
  const { type, fields } = found;
  const role = Object.hasOwn(ROLES, type.toLowerCase()) ? ROLES[type.toLowerCase()] : 'other';
  const calls = Array.isArray(fields.tool_calls) ? fields.tool_calls : [];
  return {
    role, type,
    id: text(fields.id),
    text: contentText(fields.content),
    toolCalls: calls.filter(isRecord).map((call) => ({ id: text(call.id), name: text(call.name) ?? '?', args: call.args ?? {} })),
    toolCallId: text(fields.tool_call_id),
    name: text(fields.name),
    tokens: role === 'ai' ? tokensOf(fields.usage_metadata) : 0,
  };
};

/** The channel's value as messages, when it is a list of them (an empty list counts for a channel named `messages`). */
export const asMessages = (value: unknown, channel = ''): ChatMessage[] | null => {
  if (!Array.isArray(value)) return null;
  if (value.length === 0) return channel === 'messages' ? [] : null;
  const messages: ChatMessage[] = [];
  for (const item of value) {
    const message = asMessage(item);
    if (!message) return null;
    messages.push(message);
  }
  return messages;
};

/** Tokens the ai messages of a list report in their usage_metadata. */
export const tokensIn = (messages: readonly ChatMessage[]): number => messages.reduce((sum, message) => sum + message.tokens, 0);

const sameMessage = (a: ChatMessage, b: ChatMessage) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a step did to a list of messages: the ones it added, changed (same id, other content) and
 * removed. Messages are matched by id (LangGraph's add_messages replaces by id); a list without ids
 * is compared by position, the longer list's tail being what was added.
 */
export const diffMessages = (before: readonly ChatMessage[], after: readonly ChatMessage[]): { added: ChatMessage[]; changed: ChatMessage[]; removed: ChatMessage[] } => {
  const withIds = [...before, ...after].every((message) => message.id !== null);
  if (!withIds) {
    const shared = before.findIndex((message, index) => index >= after.length || !sameMessage(message, after[index]));
    const kept = shared === -1 ? before.length : shared;
    return { added: after.slice(kept), changed: [], removed: before.slice(kept) };
  }
  const earlier = new Map(before.map((message) => [message.id, message]));
  const later = new Set(after.map((message) => message.id));
  const added: ChatMessage[] = [];
  const changed: ChatMessage[] = [];
  for (const message of after) {
    const was = earlier.get(message.id);
    if (!was) added.push(message);
    else if (!sameMessage(was, message)) changed.push(message);
  }
  return { added, changed, removed: before.filter((message) => !later.has(message.id)) };
};

/** The channels of a state that hold a list of messages. */
export const messageChannels = (values: Readonly<Record<string, unknown>>): string[] =>
  Object.keys(values).filter((key) => asMessages(values[key], key) !== null);
