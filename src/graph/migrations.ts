import type { ParseResult } from './problems.ts';
import { CURRENT_VERSION } from './schema.ts';

export interface Migration {
  /** The version this migration reads; it writes `from + 1`. */
  from: number;
  describe: string;
  up: (document: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * Ordered, one step per version (as tldraw does). Version 0 was the draft of the format that
 * the seed articles sketch: snake_case limits (`max_rounds`, `max_steps`, `token_budget`) and
 * edges that named their condition `condition`.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    from: 0,
    describe: 'snake_case limits become camelCase; edge `condition` becomes `when`',
    up: (document) => {
      const { limits, edges, ...rest } = document as { limits?: Record<string, unknown>; edges?: unknown[] };
      const renamed: Record<string, string> = { max_rounds: 'maxRounds', max_steps: 'maxSteps', token_budget: 'tokenBudget' };
      const nextLimits =
        limits && typeof limits === 'object'
          ? Object.fromEntries(Object.entries(limits).map(([key, value]) => [renamed[key] ?? key, value]))
          : limits;
      const nextEdges = Array.isArray(edges)
        ? edges.map((edge) => {
            if (!edge || typeof edge !== 'object' || !('condition' in edge)) return edge;
            const { condition, ...edgeRest } = edge as Record<string, unknown>;
            return { ...edgeRest, when: condition };
          })
        : edges;
      return { ...rest, ...(nextLimits === undefined ? {} : { limits: nextLimits }), ...(nextEdges === undefined ? {} : { edges: nextEdges }), version: 1 };
    },
  },
];

export const migrate = (
  document: Record<string, unknown>,
  migrations: readonly Migration[] = MIGRATIONS,
  target = CURRENT_VERSION,
): ParseResult<Record<string, unknown>> => {
  let current = document;
  for (let version = current.version as number; version < target; version += 1) {
    const step = migrations.find((migration) => migration.from === version);
    if (!step) return { ok: false, problems: [{ path: 'version', message: `no migration from version ${version} to ${version + 1}` }] };
    current = { ...step.up(current), version: version + 1 };
  }
  return { ok: true, value: current };
};
