/** Pure edits the inspector makes beyond the canvas's (ops.ts): a node's config by dotted keys, its id, an edge's order, skills. */
import { FORBIDDEN_KEYS } from './common.ts';
import { idProblem } from './commonSchemas.ts';
import type { GraphFile, GraphNode, Scenario } from './schema.ts';
import type { Skill } from './skills.ts';
import { skillTypeDefinition } from './skillTypes/index.ts';

export const updateNode = (graph: GraphFile, id: string, update: (node: GraphNode) => GraphNode): GraphFile => ({
  ...graph,
  nodes: graph.nodes.map((node) => (node.id === id ? update(node) : node)),
});

/** A node id that is free, or the reason it is not. */
export const checkNodeId = (graph: GraphFile, id: string, current?: string): string | null => {
  const problem = idProblem(id);
  if (problem) return problem;
  if (id !== current && graph.nodes.some((node) => node.id === id)) return `"${id}" is taken`;
  return null;
};

/** The record with one key renamed, keeping the order. */
export const renameKey = <T>(record: Record<string, T>, from: string, to: string) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key === from ? to : key, value]));

/** A scenario's expectations with one node id replaced, so that a rename does not break the tests that name it. */
const renameInScenario = (scenario: Scenario, from: string, to: string): Scenario => {
  const { expect } = scenario;
  const swap = (ids: string[] | undefined) => ids?.map((id) => (id === from ? to : id));
  const renamed = { ...expect, path: swap(expect.path), pathIncludes: swap(expect.pathIncludes), attempts: expect.attempts && renameKey(expect.attempts, from, to), visits: expect.visits && renameKey(expect.visits, from, to) };
  return {
    ...scenario,
    ...(scenario.decisions ? { decisions: renameKey(scenario.decisions, from, to) } : {}),
    expect: Object.fromEntries(Object.entries(renamed).filter(([, value]) => value !== undefined)),
  };
};

/** Renames a node and everything that names it: its edges, the entry, `finally` and the scenarios' expectations. */
export const renameNode = (graph: GraphFile, from: string, to: string): GraphFile => {
  if (from === to) return graph;
  return {
    ...graph,
    entry: graph.entry === from ? to : graph.entry,
    ...(graph.finally === from ? { finally: to } : {}),
    scenarios: graph.scenarios.map((scenario) => renameInScenario(scenario, from, to)),
    nodes: graph.nodes.map((node) => (node.id === from ? { ...node, id: to } : node)),
    edges: graph.edges.map((edge) => ({
      ...edge,
      source: edge.source === from ? to : edge.source,
      target: edge.target === from ? to : edge.target,
    })),
  };
};

/**
 * Moves an edge's ends: it leaves `source` on `outcome` (null: on no outcome) and goes to `target`.
 * Leaving on an outcome is its condition; leaving on none, an outcome condition goes (the edge is
 * then always taken) and any other condition stays. As a drag of either end does on the canvas.
 */
export const rewireEdge = (graph: GraphFile, id: string, source: string, target: string, outcome: string | null): GraphFile => ({
  ...graph,
  edges: graph.edges.map((edge) => {
    if (edge.id !== id) return edge;
    const { when, ...rest } = edge;
    const wasOutcome = typeof when === 'object' && 'outcome' in when;
    const nextWhen = outcome ? { outcome } : wasOutcome ? undefined : when;
    return { ...rest, source, target, ...(nextWhen === undefined ? {} : { when: nextWhen }) };
  }),
});

/** Moves an edge among its source's edges, which is the order conditions are tried in. */
export const moveEdge = (graph: GraphFile, id: string, direction: -1 | 1): GraphFile => {
  const edge = graph.edges.find((candidate) => candidate.id === id);
  if (!edge) return graph;
  const siblings = graph.edges.map((candidate, index) => ({ candidate, index })).filter(({ candidate }) => candidate.source === edge.source);
  const at = siblings.findIndex(({ candidate }) => candidate.id === id);
  const other = siblings[at + direction];
  if (!other) return graph;
  const edges = [...graph.edges];
  [edges[siblings[at].index], edges[other.index]] = [edges[other.index], edges[siblings[at].index]];
  return { ...graph, edges };
};

type Json = Record<string, unknown>;

/** Reads `retry.maxAttempts` style keys from a config object. */
export const getAt = (value: unknown, key: string): unknown =>
  key.split('.').reduce<unknown>((current, part) => (current !== null && typeof current === 'object' ? (current as Json)[part] : undefined), value);

/** A copy of `value` with the dotted key set; `undefined` removes the key, so optional settings can be cleared. */
export const setAt = (value: Json, key: string, next: unknown): Json => {
  const [head, ...rest] = key.split('.');
  if (FORBIDDEN_KEYS.has(head)) throw new Error(`the key "${head}" is not allowed`);
  const copy: Json = { ...value };
  const child = rest.length === 0 ? next : setAt((copy[head] as Json | undefined) ?? {}, rest.join('.'), next);
  if (child === undefined) delete copy[head];
  else copy[head] = child;
  return copy;
};

/** Where a skill is named: node ids whose config mentions it (own skill, skill lists, plans, recovery rules). */
export const skillUsers = (graph: GraphFile, skill: string): string[] =>
  graph.nodes.filter((node) => mentions(node.config, skill)).map((node) => node.id);

const mentions = (value: unknown, skill: string): boolean => {
  if (Array.isArray(value)) return value.some((item) => mentions(item, skill));
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, item]) =>
    (key === 'skill' && item === skill) || (key === 'skills' && Array.isArray(item) && item.includes(skill)) || (key !== 'args' && mentions(item, skill)),
  );
};

const renameIn = (value: unknown, from: string, to: string): unknown => {
  if (Array.isArray(value)) return value.map((item) => renameIn(item, from, to));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (key === 'skill' && item === from) return [key, to];
      if (key === 'skills' && Array.isArray(item)) return [key, item.map((name) => (name === from ? to : name))];
      if (key === 'args') return [key, item];
      return [key, renameIn(item, from, to)];
    }),
  );
};

/** A skill name that is free, or the reason it is not. */
export const checkSkillName = (graph: GraphFile, name: string, current?: string): string | null => {
  const problem = idProblem(name);
  if (problem) return problem.replace(/^an id/, 'a skill name');
  if (name !== current && Object.hasOwn(graph.skills, name)) return `"${name}" is taken`;
  return null;
};

/** Renames a skill, every node setting and every scenario override that names it, keeping the order. */
export const renameSkill = (graph: GraphFile, from: string, to: string): GraphFile => {
  if (from === to || !Object.hasOwn(graph.skills, from)) return graph;
  return {
    ...graph,
    skills: renameKey(graph.skills, from, to),
    nodes: graph.nodes.map((node) => ({ ...node, config: renameIn(node.config, from, to) }) as typeof node),
    scenarios: graph.scenarios.map((scenario) => (scenario.skills ? { ...scenario, skills: renameKey(scenario.skills, from, to) } : scenario)),
  };
};

export const setSkill = (graph: GraphFile, name: string, skill: Skill): GraphFile => ({ ...graph, skills: { ...graph.skills, [name]: skill } });

/** Removes a skill; nodes that name it keep the name, and validation reports `unknown_skill`. */
export const removeSkill = (graph: GraphFile, name: string): GraphFile => ({
  ...graph,
  skills: Object.fromEntries(Object.entries(graph.skills).filter(([key]) => key !== name)),
});

export const nextSkillName = (graph: GraphFile): string => {
  for (let n = 1; ; n += 1) if (!Object.hasOwn(graph.skills, `skill_${n}`)) return `skill_${n}`;
};

export const newSkill = (type: Skill['type']): Skill => skillTypeDefinition(type).defaults() as Skill;

// The inspector's rule editor offers these; the graph index does not re-export the kinds' modules.
export { EVALUATION_REASONS } from './kinds/verify.ts';
export { HUMAN_ACTION } from './kinds/recover.ts';
export type { RecoveryRule } from './kinds/recover.schema.ts';
