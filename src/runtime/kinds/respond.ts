import { fillTemplate } from '../../skills/index.ts';
import { asRecord, type Executor } from './types.ts';

const summary = (state: Readonly<Record<string, unknown>>): string => {
  const results = Array.isArray(state.results) ? state.results.map(asRecord) : [];
  const records = results.flatMap((result) => (Array.isArray(result?.records) ? result.records : []));
  const evidence = records.length > 0 ? records : Array.isArray(state.collected) ? state.collected : [];
  const reasoning = asRecord(state.evaluation)?.reasoning;
  return `${evidence.length} record(s) of evidence${typeof reasoning === 'string' ? ` (${reasoning})` : ''}: ${JSON.stringify(evidence)}`;
};

export const executeRespond: Executor<'respond'> = async ({ node, state }) => {
  const text = node.config.template ? fillTemplate(node.config.template, { args: {}, state }) : summary(state);
  return { outcome: null, writes: { response: { text } }, attempts: [], note: 'the response is written', stop: { reason: 'completed', explain: `${node.id} wrote the response: the run completed` } };
};
