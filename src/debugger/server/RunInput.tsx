/**
 * The run input of a graph drawn from the server: a form from its input schema (a field per
 * property, the JSON beside it kept in step), the JSON alone when the server gave no schema, and a
 * chat box when the input has a `messages` channel. Names and descriptions come from the server:
 * shown as text (Shown), never evaluated.
 */
import { useId, useState } from 'react';
import { visibleText } from '../../graph/visible.ts';
import { asMessages } from '../../runtime/messages.ts';
import { chatInput, extraOf, inputOf, textsOf, type FieldTexts, type InputField, type InputForm } from '../../runtime/inputForm.ts';
import type { ServerGraph } from '../../server/langgraphServer.ts';
import { Shown } from '../../ui/Shown.tsx';
import { useActiveRun } from '../hooks.ts';
import { Conversation } from './Conversation.tsx';
import './server.css';

/** The JSON typed as an object, or null when it is not one (its problem is said when a run starts). */
const objectOf = (text: string): Record<string, unknown> | null => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

function Field({ field, text, onChange }: { field: InputField; text: string; onChange: (text: string) => void }) {
  const help = useId();
  const name = visibleText(field.name);
  const described = field.description ? { 'aria-describedby': help } : {};
  const control = field.kind === 'enum' || field.kind === 'boolean' ? (
    <select value={text} onChange={(event) => onChange(event.target.value)} {...described}>
      <option value="">(not set)</option>
      {(field.kind === 'boolean' ? ['true', 'false'] : field.options).map((option) => <option key={option} value={option}>{visibleText(option)}</option>)}
    </select>
  ) : field.kind === 'strings' || field.kind === 'json' ? (
    <textarea rows={2} value={text} onChange={(event) => onChange(event.target.value)} spellCheck={false} {...described} />
  ) : (
    <input type="text" inputMode={field.kind === 'string' ? 'text' : 'decimal'} value={text} onChange={(event) => onChange(event.target.value)} {...described} />
  );
  const kind = { string: 'text', number: 'number', integer: 'whole number', boolean: 'true or false', enum: 'one of', strings: 'texts, one a line', json: 'JSON' }[field.kind];
  return (
    <label className="server-input-field">
      <span>{name}{field.required ? ' (required)' : ''} <span className="muted">{kind}</span></span>
      {control}
      {field.description && <span className="field-help" id={help}><Shown text={field.description} /></span>}
    </label>
  );
}

/**
 * The form and the JSON it makes. `text` (the JSON) is what a run starts with; the form's fields
 * are read from it, until the person types in one: then the fields keep what was typed (a list's
 * new line, a number half typed) and the JSON follows whenever they read as an input.
 */
export function RunInputForm({ form, text, onText, problem, onProblem }: {
  form: InputForm;
  text: string;
  onText: (text: string) => void;
  problem: string | null;
  onProblem: (problem: string | null) => void;
}) {
  const [typed, setTyped] = useState<FieldTexts | null>(null);
  const value = objectOf(text);
  const texts = typed ?? textsOf(form, value ?? {});
  const change = (name: string, fieldText: string) => {
    const next = { ...texts, [name]: fieldText };
    setTyped(next);
    const read = inputOf(form, next, extraOf(form, value ?? {}));
    onProblem('error' in read ? `Run input: ${read.error}` : null);
    if ('value' in read) onText(JSON.stringify(read.value, null, 2));
  };
  return (
    <fieldset className="server-input">
      <legend>Run input</legend>
      {form.fields.map((field) => <Field key={field.name} field={field} text={texts[field.name] ?? ''} onChange={(fieldText) => change(field.name, fieldText)} />)}
      {problem && <p role="alert">{problem}</p>}
      <details>
        <summary>Run input as JSON</summary>
        <label>
          Run input (JSON)
          <textarea rows={4} value={text} spellCheck={false} onChange={(event) => {
            setTyped(null);
            onProblem(null);
            onText(event.target.value);
          }} />
        </label>
      </details>
    </fieldset>
  );
}

/** Where the graph's input form stands: its schema read, not read yet, or why the server gave none. */
export function InputSchemaNote({ graph }: { graph: ServerGraph }) {
  if (graph.inputSchema === null) return <p className="field-help">Reading the graph's input schema…</p>;
  if ('error' in graph.inputSchema) return <p className="field-help">No input form: the server gave no input schema for {visibleText(graph.graphId)} (<Shown text={graph.inputSchema.error} />). Type the run input as JSON.</p>;
  return <p className="field-help">The input schema of {visibleText(graph.graphId)} has no properties to make a form of: type the run input as JSON.</p>;
}

/**
 * A chat box for a graph whose input has a `messages` channel: Send starts a run (on the open
 * thread, where the conversation goes on; on a new thread when none is open) with the message as
 * the input's `messages`, which LangGraph's reducer appends. The thread's conversation is shown.
 */
export function ChatBox({ thread, busy, onSend }: { thread: string | null; busy: boolean; onSend: (input: Record<string, unknown>) => void }) {
  const [text, setText] = useState('');
  const run = useActiveRun();
  const messages = thread && run ? (asMessages(run.trace.finalState.messages, 'messages') ?? []) : [];
  const send = () => {
    if (text.trim() === '') return;
    onSend(chatInput(text));
    setText('');
  };
  return (
    <div className="server-chat" role="group" aria-label="Chat">
      {messages.length > 0 && <Conversation messages={messages} label="Conversation on the thread" />}
      <form onSubmit={(event) => {
        event.preventDefault();
        send();
      }}>
        <label>
          Message
          <textarea rows={2} value={text} onChange={(event) => setText(event.target.value)} onKeyDown={(event) => {
            // Enter sends, as in a chat; Shift+Enter is a new line.
            if (event.key === 'Enter' && !event.shiftKey) {
              event.preventDefault();
              send();
            }
          }} />
        </label>
        <button type="submit" disabled={busy || text.trim() === ''}>Send</button>
      </form>
      <p className="field-help">{thread ? 'Send goes on with the open thread: the message is added to its conversation.' : 'Send starts a new thread with this message.'}</p>
    </div>
  );
}
