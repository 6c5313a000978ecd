import { useId, useState, type ReactNode } from 'react';
import { describeProblems, readJson, type ParseResult } from '../../graph/index.ts';
import { setAt } from '../../graph/inspectorOps.ts';
import { parseUntrusted } from '../../graph/parse.ts';
import type * as z from 'zod/mini';
import { LazySelect } from '../../ui/LazySelect.tsx';

/** An apply function answers with the reason a value was refused, or null once it is applied. */
export type Apply<T> = (value: T) => string | null;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Text being typed, kept apart from the graph: a bad draft stays on screen with its error and
 * never reaches the graph. When the graph changes from elsewhere (undo, another field), the draft follows.
 */
const useDraft = (committed: string, sameValue: (draft: string, committed: string) => boolean) => {
  const [draft, setDraft] = useState(committed);
  const [error, setError] = useState<string | null>(null);
  const [seen, setSeen] = useState(committed);
  if (committed !== seen) {
    setSeen(committed);
    // The draft that just produced this value stays as typed (no reformatting under the cursor).
    if (!sameValue(draft, committed)) {
      setDraft(committed);
      setError(null);
    }
  }
  return { draft, setDraft, error, setError };
};

export function FieldRow({ label, id, error, help, children }: { label: string; id: string; error?: string | null; help?: string; children: ReactNode }) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : help ? (
        <p className="field-help" id={`${id}-help`}>
          {help}
        </p>
      ) : null}
    </div>
  );
}

interface DraftFieldProps<T> {
  label: string;
  /** The committed value, as text. */
  value: string;
  parse: (text: string) => Parsed<T>;
  apply: Apply<T>;
  help?: string;
  multiline?: boolean;
  /** Apply on Enter or leaving the field instead of on every keystroke (renames). */
  commitOnBlur?: boolean;
  list?: string;
  inputMode?: 'decimal' | 'text';
  placeholder?: string;
}

export function DraftField<T>({ label, value, parse, apply, help, multiline, commitOnBlur, list, inputMode, placeholder }: DraftFieldProps<T>) {
  const id = useId();
  const { draft, setDraft, error, setError } = useDraft(value, (text, committed) => {
    const typed = parse(text);
    const saved = parse(committed);
    return typed.ok && saved.ok && JSON.stringify(typed.value) === JSON.stringify(saved.value);
  });
  const attempt = (text: string, commit: boolean) => {
    const parsed = parse(text);
    if (!parsed.ok) return setError(parsed.message);
    if (!commit) return setError(null);
    setError(text === value ? null : apply(parsed.value));
  };
  const common = {
    id,
    value: draft,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : help ? `${id}-help` : undefined,
    placeholder,
    onChange: (event: { target: { value: string } }) => {
      setDraft(event.target.value);
      attempt(event.target.value, !commitOnBlur);
    },
    onBlur: commitOnBlur ? () => attempt(draft, true) : undefined,
  };
  return (
    <FieldRow label={label} id={id} error={error} help={help}>
      {multiline ? (
        <textarea {...common} rows={Math.min(12, Math.max(3, draft.split('\n').length))} spellCheck={false} />
      ) : (
        <input
          {...common}
          type="text"
          list={list}
          inputMode={inputMode}
          onKeyDown={commitOnBlur ? (event) => event.key === 'Enter' && attempt(draft, true) : undefined}
        />
      )}
    </FieldRow>
  );
}

const ok = <T,>(value: T): Parsed<T> => ({ ok: true, value });

export const parseText = (optional = true) => (text: string): Parsed<string | undefined> =>
  text === '' ? (optional ? ok(undefined) : { ok: false, message: 'required' }) : ok(text);

export const parseNumber = (optional = false) => (text: string): Parsed<number | undefined> => {
  const trimmed = text.trim();
  if (trimmed === '') return optional ? ok(undefined) : { ok: false, message: 'required: enter a number' };
  const number = Number(trimmed);
  return Number.isFinite(number) ? ok(number) : { ok: false, message: `"${text}" is not a number` };
};

export const parseJsonText = (optional = false) => (text: string): Parsed<unknown> => {
  if (text.trim() === '' && optional) return ok(undefined);
  const parsed = readJson(text);
  return parsed.ok ? ok(parsed.value) : { ok: false, message: describeProblems(parsed.problems) };
};

export const jsonText = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));

export function NumberField({ label, value, apply, optional, help, placeholder }: { label: string; value: number | undefined; apply: Apply<number | undefined>; optional?: boolean; help?: string; placeholder?: string }) {
  return <DraftField label={label} value={value === undefined ? '' : String(value)} parse={parseNumber(optional)} apply={apply} inputMode="decimal" help={help} placeholder={placeholder} />;
}

export function TextField({ label, value, apply, optional = true, help, multiline, list }: { label: string; value: string | undefined; apply: Apply<string | undefined>; optional?: boolean; help?: string; multiline?: boolean; list?: string }) {
  return <DraftField label={label} value={value ?? ''} parse={parseText(optional)} apply={apply} help={help} multiline={multiline} list={list} />;
}

export function JsonField({ label, value, apply, optional, help }: { label: string; value: unknown; apply: Apply<unknown>; optional?: boolean; help?: string }) {
  return <DraftField label={label} value={jsonText(value)} parse={parseJsonText(optional)} apply={apply} multiline help={help} />;
}

const NONE = [{ value: '', label: '(none)' }];

/** An option that does something rather than pick a value ("New skill…"); its value is none an option can have. */
export interface SelectAction {
  value: string;
  label: string;
  run: () => void;
}

export function SelectField({ label, value, options, labels, apply, optional, help, actions = [] }: { label: string; value: string | undefined; options: readonly string[]; labels?: Record<string, string>; apply: Apply<string | undefined>; optional?: boolean; help?: string; actions?: readonly SelectAction[] }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  // A value the options do not list (an unknown skill) stays visible rather than silently changing.
  const shown = value !== undefined && !options.includes(value) ? [value, ...options] : options;
  return (
    <FieldRow label={label} id={id} error={error} help={help}>
      <LazySelect
        id={id}
        value={value ?? ''}
        aria-invalid={error ? true : undefined}
        onChange={(event) => {
          const action = actions.find((candidate) => candidate.value === event.target.value);
          if (action) action.run();
          else setError(apply(event.target.value === '' ? undefined : event.target.value));
        }}
        fixed={[...(optional || value === undefined ? NONE : []), ...actions]}
        choices={shown.map((option) => ({ value: option, label: labels?.[option] ?? option }))}
      />
    </FieldRow>
  );
}

export function CheckboxesField({ label, value, options, apply, help }: { label: string; value: readonly string[]; options: readonly string[]; apply: Apply<string[]>; help?: string }) {
  const [error, setError] = useState<string | null>(null);
  const shown = [...options, ...value.filter((item) => !options.includes(item))];
  return (
    <fieldset className={`field checkboxes${error ? ' field-invalid' : ''}`}>
      <legend>{label}</legend>
      {shown.length === 0 ? <p className="field-help">none to choose from</p> : null}
      {shown.map((option) => (
        <label key={option} className="checkbox">
          <input
            type="checkbox"
            checked={value.includes(option)}
            onChange={(event) => setError(apply(event.target.checked ? [...value, option] : value.filter((item) => item !== option)))}
          />
          {option}
        </label>
      ))}
      {error ? <p className="field-error">{error}</p> : help ? <p className="field-help">{help}</p> : null}
    </fieldset>
  );
}

/** Sets a dotted key on an object and checks the whole object against its schema before committing. */
export const applyAt = <S extends z.ZodMiniType>(schema: S, current: Record<string, unknown>, key: string, value: unknown, commit: (next: z.infer<S>) => void): string | null => {
  const result: ParseResult<z.infer<S>> = parseUntrusted(schema, setAt(current, key, value));
  if (!result.ok) return describeProblems(result.problems);
  commit(result.value);
  return null;
};

const SUFFIXES: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
const ordinalRules = new Intl.PluralRules('en', { type: 'ordinal' });
/** 1st, 2nd, 3rd, 11th: for "tried 2nd of 3". */
export const ordinal = (n: number) => `${n}${SUFFIXES[ordinalRules.select(n)]}`;
