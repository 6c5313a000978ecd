/** A list of LangChain messages as a conversation: human, ai and tool, each tool call beside its result. */
import { visibleText } from '../../graph/visible.ts';
import type { ChatMessage } from '../../runtime/messages.ts';
import { Shown } from '../../ui/Shown.tsx';

/** Longer texts are folded to their start, opened on demand. */
const FOLD_OVER = 400;
const FOLDED_START = 160;

function Text({ text }: { text: string }) {
  if (text.length <= FOLD_OVER) return <span className="message-text">{text}</span>;
  return (
    <details className="message-text">
      <summary>{text.slice(0, FOLDED_START)}… ({text.length} characters)</summary>
      {text}
    </details>
  );
}

/** A call in one line: the server's tool name and arguments, their control and format characters as escapes. */
const callWords = (call: ChatMessage['toolCalls'][number]) => visibleText(`${call.name}(${JSON.stringify(call.args)})`);

/**
 * The messages in order. An ai message's tool calls each show the tool message that answers them
 * (by `tool_call_id`) beside them, found in `context` (the whole conversation) when it is not in
 * `messages`; a tool message shown beside its call is not shown again. `marks` names messages by
 * id (or position) as added or changed by the step shown.
 */
export function Conversation({ messages, context = messages, marks = new Map(), label }: {
  messages: readonly ChatMessage[];
  context?: readonly ChatMessage[];
  marks?: ReadonlyMap<ChatMessage, 'added' | 'changed'>;
  label: string;
}) {
  const answers = new Map(context.filter((message) => message.role === 'tool' && message.toolCallId !== null).map((message) => [message.toolCallId, message]));
  const calls = new Map(context.flatMap((message) => message.toolCalls.map((call) => [call.id, call] as const)));
  const shownBeside = new Set(messages.flatMap((message) => message.toolCalls.map((call) => answers.get(call.id)).filter((answer): answer is ChatMessage => answer !== undefined)));
  return (
    <ul className="conversation" aria-label={label}>
      {messages.filter((message) => !shownBeside.has(message)).map((message, index) => {
        const call = message.role === 'tool' ? calls.get(message.toolCallId) : undefined;
        return (
          <li key={message.id ?? index} className={`message message-${message.role} ${marks.get(message) ?? ''}`} aria-label={`${message.role} message`}>
            <span className="message-role"><Shown text={message.role === 'other' ? message.type : message.role} />{message.name ? <> · <Shown text={message.name} /></> : ''}</span>
            {message.tokens > 0 && <span className="muted"> {message.tokens} tokens</span>}
            {marks.get(message) && <span className="muted"> ({marks.get(message)} by this step)</span>}
            {call && <span className="muted"> answers {callWords(call)}</span>}
            <div><Text text={message.text} /></div>
            {message.toolCalls.map((toolCall, at) => {
              const answer = answers.get(toolCall.id);
              return (
                <div key={toolCall.id ?? at} className="tool-call" role="group" aria-label={`Tool call ${visibleText(toolCall.name)}`}>
                  <code>calls {callWords(toolCall)}</code>
                  {answer ? (
                    <span className={`tool-result ${marks.get(answer) ?? ''}`}>→ <Text text={answer.text} />{marks.get(answer) && <span className="muted"> ({marks.get(answer)} by this step)</span>}</span>
                  ) : <span className="tool-result missing">→ no result yet</span>}
                </div>
              );
            })}
          </li>
        );
      })}
    </ul>
  );
}
