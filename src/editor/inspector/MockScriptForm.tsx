import { CALL_OUTCOMES, FAILURE_OUTCOMES, type GraphFile, type MockEntry } from '../../graph/index.ts';
import { kindDefinition } from '../../graph/kinds/index.ts';
import { RemoveIcon } from '../../ui/icons.tsx';
import { DraftField, JsonField, NumberField, SelectField, TextField, type Parsed } from './fields.tsx';

/**
 * Applies a whole new script and answers why it was refused, or null. `editKey` names the field
 * typed into, so that typing is one undo step; a row added, removed or moved is a step of its own (null).
 */
export type ApplyScript = (script: unknown, editKey: string | null) => string | null;

/** An inner loop's decider answers with a reply: the tool to call next, or done. */
const DECIDER = 'config.loop.decider';

/** Whether some node reads this skill's answer as a model's reply (a judge, an llm planner, a decider): its script then scripts the reply too. */
export const answersWithReply = (graph: GraphFile, skill: string): boolean =>
  graph.nodes.some((node) => {
    const definition = kindDefinition(node.kind);
    const config = node.config as Record<string, unknown>;
    return definition.fields.some((field) => field.type === 'skill' && field.replies && config[field.key] === skill)
      || (definition.skillRefs as (config: unknown) => { skill: string; where: string }[])(node.config).some((reference) => reference.skill === skill && reference.where === DECIDER);
  });

const OUTCOME_LABELS: Record<string, string> = {
  ok: 'ok: found records',
  empty: 'empty: no records',
  timeout: 'timeout: no answer in time',
  parse_error: 'parse_error: an answer that could not be read',
  permission_denied: 'permission_denied: refused',
  error: 'error: the call failed',
};

const isFailure = (outcome: string) => (FAILURE_OUTCOMES as readonly string[]).includes(outcome);

/** A reply is what a model said: JSON when it reads as JSON, else the text as typed. */
const parseReply = (text: string): Parsed<unknown> => {
  if (text === '') return { ok: true, value: undefined };
  try {
    const value: unknown = JSON.parse(text);
    return { ok: true, value: typeof value === 'object' && value !== null ? value : text };
  } catch {
    return { ok: true, value: text };
  }
};
const replyText = (reply: unknown) => (reply === undefined ? '' : typeof reply === 'string' ? reply : JSON.stringify(reply));

/** What a script answers, short: `timeout, then ok (2 records) from the 2nd call on`. */
export const scriptSummary = (script: readonly MockEntry[]) => {
  const words = script.map((entry) => `${entry.outcome}${entry.records?.length ? ` (${entry.records.length} record${entry.records.length === 1 ? '' : 's'})` : ''}`);
  return script.length === 1 ? `${words[0]} on every call` : `${words.slice(0, -1).join(', then ')}, then ${words.at(-1)} from call ${script.length} on`;
};

const move = <T,>(items: readonly T[], from: number, to: number) => {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
};

/**
 * A mock skill's script as a form: one row per call, in order, the last repeating; each row's
 * outcome from the list, its records (ok), error message (a failure), tokens, delay and, for a
 * skill read as a model's reply, the reply. The JSON is an advanced view of the same script: each
 * follows the other, and JSON that does not read keeps its text with the reason.
 */
export function MockScriptForm({ script, apply, replies }: { script: readonly MockEntry[]; apply: ApplyScript; replies: boolean }) {
  const setEntry = (index: number, key: keyof MockEntry, value: unknown) => {
    const entry: Record<string, unknown> = { ...script[index], [key]: value };
    if (value === undefined) delete entry[key];
    // Records left over from an ok entry would make an "empty" result count as evidence, and a failure returns none.
    if (key === 'outcome' && value !== 'ok') delete entry.records;
    return apply(script.map((existing, at) => (at === index ? entry : existing)), `script.${index}.${key}`);
  };
  const last = script.length - 1;
  return (
    <div className="mock-script" role="group" aria-label="Script">
      <p className="field-help">One row per call, in order. The last row repeats for every call after it. An ok call with no records counts as empty.</p>
      <ol className="list-editor">
        {script.map((entry, index) => (
          <li key={index} className="list-item" aria-label={`Call ${index + 1}`}>
            <div className="row-head">
              <span className="field-title">{index === last ? `Call ${index + 1} and every call after it` : `Call ${index + 1}`}</span>
              <span className="row-buttons">
                <button type="button" aria-label={`Move call ${index + 1} up`} title="Move up" disabled={index === 0} onClick={() => apply(move(script, index, index - 1), null)}>↑</button>
                <button type="button" aria-label={`Move call ${index + 1} down`} title="Move down" disabled={index === last} onClick={() => apply(move(script, index, index + 1), null)}>↓</button>
                <button type="button" aria-label={`Remove call ${index + 1}`} title="Remove" disabled={script.length === 1} onClick={() => apply(script.filter((_, at) => at !== index), null)}><RemoveIcon size={14} aria-hidden /></button>
              </span>
            </div>
            <SelectField label="Outcome" value={entry.outcome} options={CALL_OUTCOMES} labels={OUTCOME_LABELS} apply={(value) => setEntry(index, 'outcome', value)} />
            {entry.outcome === 'ok' || (entry.records?.length ?? 0) > 0 ? (
              <JsonField label="Records (JSON)" value={entry.records} optional apply={(value) => setEntry(index, 'records', value)} help='A list: [{"ip": "10.0.0.5"}].' />
            ) : null}
            {isFailure(entry.outcome) || entry.error !== undefined ? <TextField label="Error message" value={entry.error} apply={(value) => setEntry(index, 'error', value)} /> : null}
            {replies || entry.reply !== undefined ? (
              <DraftField label="Reply (what the model answered)" value={replyText(entry.reply)} parse={parseReply} multiline apply={(value) => setEntry(index, 'reply', value)} help='Text, or JSON such as {"tool": "search", "args": {}}.' />
            ) : null}
            <div className="row-numbers">
              <NumberField label="Tokens" value={entry.tokens} optional apply={(value) => setEntry(index, 'tokens', value)} placeholder="the skill's" />
              <NumberField label="Delay (ms)" value={entry.delayMs} optional apply={(value) => setEntry(index, 'delayMs', value)} placeholder="0" />
            </div>
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => apply([...script, { outcome: 'ok', records: [{}] }], null)}>Add call</button>
      <details className="advanced">
        <summary>Script as JSON</summary>
        <JsonField label="Script (JSON)" value={script} apply={(value) => apply(value, 'script')} help="The same script: an edit here shows in the rows above, and theirs here." />
      </details>
    </div>
  );
}
