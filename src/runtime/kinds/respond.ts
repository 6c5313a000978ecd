import { fillTemplate } from '../../skills/index.ts';
import { asRecord, type Executor } from './types.ts';

const SHOWN_RECORDS = 5;

/** `ip=10.0.0.5 user=admin`: a record a person reads at a glance. */
const recordLine = (record: unknown): string => {
  const fields = asRecord(record);
  if (!fields) return JSON.stringify(record);
  return Object.entries(fields).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`).join(' ');
};

/** Without a template: what was asked and the evidence found. */
const summary = (state: Readonly<Record<string, unknown>>): string => {
  const results = Array.isArray(state.results) ? state.results.map(asRecord) : [];
  const records = results.flatMap((result) => (Array.isArray(result?.records) ? result.records : []));
  const evidence = records.length > 0 ? records : Array.isArray(state.collected) ? state.collected : [];
  const asked = [state.question, state.task].find((value) => typeof value === 'string');
  const lines = evidence.slice(0, SHOWN_RECORDS).map((record) => `- ${recordLine(record)}`);
  if (evidence.length > SHOWN_RECORDS) lines.push(`- … and ${evidence.length - SHOWN_RECORDS} more`);
  return [
    `${asked ? `${asked as string} — ` : ''}${evidence.length} record(s) of evidence:`,
    ...lines,
  ].join('\n');
};

export const executeRespond: Executor<'respond'> = async ({ node, state }) => {
  const text = node.config.template ? fillTemplate(node.config.template, { args: {}, state }) : summary(state);
  return { outcome: null, writes: { response: { text } }, attempts: [], note: { is: 'responded' }, stop: { reason: 'completed', why: { is: 'responded', node: node.id } } };
};
