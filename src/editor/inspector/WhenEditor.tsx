import { useId } from 'react';
import { describeProblems, type Op } from '../../graph/index.ts';
import { OPS, When } from '../../graph/when.ts';
import { parseWith } from '../../graph/parse.ts';
import { DraftField, SelectField, type Apply, type Parsed } from './fields.tsx';

type WhenForm = 'always' | 'otherwise' | 'outcome' | 'field' | 'all' | 'any' | 'not';

const FORM_LABELS: Record<WhenForm, string> = {
  always: 'always',
  otherwise: 'otherwise (no other edge matched)',
  outcome: 'outcome is',
  field: 'field condition',
  all: 'all of',
  any: 'any of',
  not: 'not',
};

export const formOf = (when: When | undefined): WhenForm => {
  if (when === undefined || when === 'always') return 'always';
  if (when === 'otherwise') return 'otherwise';
  if ('outcome' in when) return 'outcome';
  if ('path' in when) return 'field';
  if ('all' in when) return 'all';
  if ('any' in when) return 'any';
  return 'not';
};

const VALUELESS_OPS: readonly Op[] = ['exists', 'empty'];

/** What an operator asks, where its name alone does not say it. */
const OP_LABELS: Partial<Record<Op, string>> = { contains: 'contains (the list at the path holds the value)' };

/** The value an operator starts with when chosen: `in` a list, `contains` one item, others what was there. */
const valueFor = (op: Op, value: unknown): unknown => {
  if (op === 'in') return Array.isArray(value) ? value : [value ?? ''];
  if (op === 'contains') return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
  return value ?? true;
};

interface Context {
  outcomes: readonly string[];
  pathsListId: string;
  defaultPath: string;
}

/** Switching form keeps what it can: a group wraps the current condition. */
const convert = (when: When | undefined, form: WhenForm, context: Context): When => {
  const simple: When = when === undefined || when === 'otherwise' ? 'always' : when;
  switch (form) {
    case 'always':
    case 'otherwise':
      return form;
    case 'outcome':
      return { outcome: context.outcomes[0] ?? 'ok' };
    case 'field':
      return { path: context.defaultPath, op: 'eq', value: true };
    case 'all':
      return { all: [simple] };
    case 'any':
      return { any: [simple] };
    case 'not':
      return { not: simple };
  }
};

/** A condition value as typed: JSON when it reads as JSON (true, 3, [1,2], "text"), otherwise plain text. */
const readJson = (text: string): { value: unknown } | null => {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return null;
  }
};

// Plain text is a string value: that is what people mean by `reason eq timeout`.
const parseValue = (op: Op) => (text: string): Parsed<unknown> => {
  const json = readJson(text);
  const value = json ? json.value : text;
  if (op === 'in' && !Array.isArray(value)) return { ok: false, message: 'in needs a list, like ["timeout","parse_error"]' };
  if (op === 'contains' && text.trim() === '') return { ok: false, message: 'contains needs the item the list must hold, like expand_search_scope' };
  return { ok: true, value };
};

const typeOf = (value: unknown) => (Array.isArray(value) ? 'list' : value === null ? 'null' : typeof value);

const valueText = (value: unknown) => (typeof value === 'string' && !readJson(value) ? value : value === undefined ? '' : JSON.stringify(value));

function FieldCondition({ when, context, apply }: { when: Extract<When, { path: string }>; context: Context; apply: Apply<When> }) {
  const hasValue = !VALUELESS_OPS.includes(when.op);
  return (
    <div className="when-field">
      <DraftField
        label="Field path"
        value={when.path}
        list={context.pathsListId}
        parse={(text): Parsed<string> => ({ ok: true, value: text })}
        apply={(path) => apply({ ...when, path })}
        help="A state field, like evaluation.plan_exhausted"
      />
      <SelectField
        label="Operator"
        value={when.op}
        options={OPS}
        labels={OP_LABELS}
        apply={(op) => {
          const next = { path: when.path, op: op as Op, ...(VALUELESS_OPS.includes(op as Op) ? {} : { value: valueFor(op as Op, when.value) }) };
          return apply(next);
        }}
      />
      {hasValue ? (
        <DraftField label="Value" value={valueText(when.value)} parse={parseValue(when.op)} apply={(value) => apply({ ...when, value })} help={when.op === 'contains' ? `the item the list holds, read as ${typeOf(when.value)}; e.g. recovery.tried contains expand_search_scope` : `read as ${typeOf(when.value)}; JSON or plain text`} />
      ) : null}
    </div>
  );
}

function GroupCondition({ items, form, context, apply }: { items: readonly When[]; form: 'all' | 'any'; context: Context; apply: Apply<When> }) {
  const set = (next: When[]) => apply(form === 'all' ? { all: next } : { any: next });
  return (
    <ol className="when-group">
      {items.map((item, index) => (
        <li key={index}>
          <WhenEditor when={item} context={context} nested apply={(value) => set(items.map((existing, at) => (at === index ? value : existing)))} />
          {items.length > 1 ? (
            <button type="button" onClick={() => set(items.filter((_, at) => at !== index))}>
              Remove condition {index + 1}
            </button>
          ) : null}
        </li>
      ))}
      <li>
        <button type="button" onClick={() => set([...items, 'always'])}>
          Add condition
        </button>
      </li>
    </ol>
  );
}

export function WhenEditor({ when, context, nested, apply }: { when: When | undefined; context: Context; nested?: boolean; apply: Apply<When> }) {
  const form = formOf(when);
  // `otherwise` only means something for a whole edge, not inside a group.
  const forms = (Object.keys(FORM_LABELS) as WhenForm[]).filter((candidate) => !nested || candidate !== 'otherwise');
  const check: Apply<When> = (next) => {
    const result = parseWith(When, next);
    return result.ok ? apply(result.value) : describeProblems(result.problems);
  };
  return (
    <div className={`when${nested ? ' when-nested' : ''}`}>
      <SelectField label={nested ? 'Condition' : 'Fires when'} value={form} options={forms} labels={FORM_LABELS} apply={(value) => check(convert(when, value as WhenForm, context))} />
      {when !== undefined && typeof when === 'object' ? (
        'outcome' in when ? (
          <SelectField label="Outcome" value={when.outcome} options={context.outcomes} apply={(outcome) => check({ outcome: outcome ?? '' })} />
        ) : 'path' in when ? (
          <FieldCondition when={when} context={context} apply={check} />
        ) : 'all' in when ? (
          <GroupCondition items={when.all} form="all" context={context} apply={check} />
        ) : 'any' in when ? (
          <GroupCondition items={when.any} form="any" context={context} apply={check} />
        ) : (
          <WhenEditor when={when.not} context={context} nested apply={(inner) => check({ not: inner })} />
        )
      ) : null}
    </div>
  );
}

export const usePathsListId = () => `paths-${useId().replace(/:/g, '')}`;
