/**
 * A graph's settings as a flat list of what a person sets (limits, the entry, each node's kind and
 * inspector fields, each edge), so that two versions of a graph can be told apart setting by
 * setting: what changed between a saved run's graph and today's, or between two runs' graphs.
 * The changes are data; `settingName` and `changeWords` are where they are worded.
 */
import { describeWhen } from './describe.ts';
import { kindDefinition } from './kinds/index.ts';
import type { GraphFile, Limits } from './schema.ts';
import { When } from './when.ts';

export type Settings = Record<string, unknown>;

export interface SettingChange {
  /** `limits.tokenBudget`, `nodes.execute.retry.maxAttempts`, `edges.e14`, `skills.search.script`. */
  path: string;
  /** Absent: the setting (or its node, edge or skill) was not there. */
  before?: unknown;
  after?: unknown;
}

const readAt = (value: unknown, key: string): unknown =>
  key.split('.').reduce<unknown>((at, part) => (at !== null && typeof at === 'object' && Object.hasOwn(at, part) ? (at as Record<string, unknown>)[part] : undefined), value);

/** The settings a run depends on; with `skills`, each skill whole too (two runs' graphs; a scenario brings its own skills). */
export const settingsOf = (graph: GraphFile, { skills = false } = {}): Settings => {
  const settings: Settings = {};
  const put = (path: string, value: unknown) => {
    if (value !== undefined) settings[path] = value;
  };
  for (const [key, value] of Object.entries(graph.limits)) put(`limits.${key}`, value);
  put('entry', graph.entry);
  put('finally', graph.finally);
  put('permissions.mode', graph.permissions.mode);
  for (const node of graph.nodes) {
    put(`nodes.${node.id}.kind`, node.kind);
    for (const field of kindDefinition(node.kind).fields) put(`nodes.${node.id}.${field.key}`, readAt(node.config, field.key));
  }
  for (const edge of graph.edges) put(`edges.${edge.id}`, { source: edge.source, target: edge.target, ...(edge.when === undefined ? {} : { when: edge.when }) });
  if (skills) for (const [name, skill] of Object.entries(graph.skills)) for (const [key, value] of Object.entries(skill)) put(`skills.${name}.${key}`, value);
  return settings;
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The setting that stands for its whole node or skill: when it comes or goes, the rest of them are not listed. */
const wholeOf = (path: string) => {
  const [part, id, key] = path.split('.');
  return (part === 'nodes' && key === 'kind') || (part === 'skills' && key === 'type') ? `${part}.${id}.` : null;
};

/** What differs between two graphs' settings, limits first, then nodes, edges and skills as listed; a node or skill that came or went is one change. */
export const settingChanges = (before: Settings, after: Settings): SettingChange[] => {
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changes = paths.flatMap((path) => {
    const had = Object.hasOwn(before, path);
    const has = Object.hasOwn(after, path);
    if (had && has && same(before[path], after[path])) return [];
    return [{ path, ...(had ? { before: before[path] } : {}), ...(has ? { after: after[path] } : {}) }];
  });
  const cameOrWent = changes.flatMap((change) => (wholeOf(change.path) && (change.before === undefined || change.after === undefined) ? [wholeOf(change.path) as string] : []));
  return changes.filter((change) => wholeOf(change.path) || !cameOrWent.some((prefix) => change.path.startsWith(prefix)));
};

/** Each limit by the label the graph settings give it (the inspector reads them here too). */
export const LIMIT_NAMES: Record<keyof typeof Limits.shape, string> = { maxRounds: 'Max rounds', maxSteps: 'Max steps', tokenBudget: 'Token budget', onBudget: 'When the budget is spent' };

/** The node a setting belongs to, or the node an edge leaves: what a change is about. */
export const nodeOfSetting = (change: SettingChange): string | null => {
  const [part, id] = change.path.split('.');
  if (part === 'nodes') return id;
  if (part !== 'edges') return null;
  const edge = (change.after ?? change.before) as { source?: string } | undefined;
  return edge?.source ?? null;
};

/** A setting by the names the inspector shows: `Execute skill's Max attempts`, `the Token budget`, `edge e14`. */
export const settingName = (path: string, graph?: GraphFile): string => {
  const [part, id, ...rest] = path.split('.');
  const key = rest.join('.');
  // A saved run's settings come from a file: a key named like an Object method is a key, never looked up on the prototype.
  if (part === 'limits') return `the ${Object.hasOwn(LIMIT_NAMES, id) ? LIMIT_NAMES[id as keyof typeof LIMIT_NAMES] : id}`;
  if (part === 'edges') return `edge ${id}`;
  if (part === 'skills') return `skill ${id}'s ${key}`;
  if (part === 'nodes') {
    const node = graph?.nodes.find((candidate) => candidate.id === id);
    const label = node?.label ?? id;
    if (key === 'kind') return `${label}'s kind`;
    const field = node ? kindDefinition(node.kind).fields.find((candidate) => candidate.key === key) : undefined;
    return `${label}'s ${field?.label ?? key}`;
  }
  return path === 'permissions.mode' ? 'the permission mode' : `the ${path}`;
};

/** A setting's value in words: an edge as where it goes and on what. */
export const settingValue = (path: string, value: unknown): string => {
  if (value === undefined) return 'not set';
  const edge = value as { source?: unknown; target?: unknown; when?: unknown };
  // A saved run's edge is read from a file: worded only when it is one, else shown as its JSON.
  if (path.startsWith('edges.') && typeof edge.source === 'string' && typeof edge.target === 'string') {
    const when = edge.when === undefined ? undefined : When.safeParse(edge.when);
    if (!when || when.success) return `${edge.source} → ${edge.target}${when ? ` on ${describeWhen(when.data)}` : ''}`;
  }
  return JSON.stringify(value);
};

/**
 * One change, against what the earlier graph had: `Execute skill's Max attempts is 2; the saved
 * run's graph had 3`. `earlier` names that graph ("the saved run's graph", "run 1's graph");
 * `needed`, when given, says what the earlier run needed instead (`the saved run needed 3`).
 */
export const changeWords = (change: SettingChange, earlier: string, graph?: GraphFile, needed?: string): string => {
  const name = settingName(change.path, graph);
  if (needed !== undefined) return `${name} is ${settingValue(change.path, change.after)}; ${needed}`;
  const [part, id, key] = change.path.split('.');
  const whole = part === 'nodes' ? key === 'kind' : part === 'skills' ? key === 'type' : part === 'edges';
  const thing = part === 'nodes' ? `node ${id}` : part === 'skills' ? `skill ${id}` : `edge ${id}`;
  if (whole && (change.before === undefined || change.after === undefined))
    return change.after === undefined ? `${thing} is gone; ${earlier} had it` : `${thing} is new; ${earlier} did not have it`;
  if (change.before === undefined) return `${name} is ${settingValue(change.path, change.after)}; ${earlier} did not have it`;
  return `${name} is ${settingValue(change.path, change.after)}; ${earlier} had ${settingValue(change.path, change.before)}`;
};
