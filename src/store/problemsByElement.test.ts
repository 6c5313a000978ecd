import { describe, expect, it } from 'vitest';
import type { Problem } from '../graph/index.ts';
import { problemsByElement, selectProblemsByElement } from './problemsByElement.ts';

const problem = (severity: Problem['severity'], message: string, ids: Partial<Pick<Problem, 'nodeId' | 'edgeId'>>): Problem => ({ code: 'unreachable', severity, message, ...ids });

describe('problemsByElement', () => {
  it('keeps the worst severity and every message of each node and edge', () => {
    const result = problemsByElement([
      problem('warning', 'w1', { nodeId: 'a' }),
      problem('error', 'e1', { nodeId: 'a' }),
      problem('warning', 'w2', { nodeId: 'a' }),
      problem('warning', 'edge', { edgeId: 'e1' }),
      problem('error', 'whole file', {}),
    ]);
    expect(result.nodes).toEqual(new Map([['a', { severity: 'error', messages: ['w1', 'e1', 'w2'] }]]));
    expect(result.edges).toEqual(new Map([['e1', { severity: 'warning', messages: ['edge'] }]]));
  });

  it('marks ids that are names of Object methods, and only those with problems', () => {
    const result = problemsByElement([problem('warning', 'unreachable', { nodeId: 'toString' }), problem('error', 'e', { edgeId: 'constructor' })]);
    expect(result.nodes.get('toString')).toEqual({ severity: 'warning', messages: ['unreachable'] });
    expect(result.edges.get('constructor')).toEqual({ severity: 'error', messages: ['e'] });
    expect(result.nodes.get('valueOf')).toBeUndefined();
    expect(result.edges.get('hasOwnProperty')).toBeUndefined();
  });

  it('gives the same object for the same problems array, so a store selector does not re-render', () => {
    const problems = [problem('warning', 'w', { nodeId: 'a' })];
    expect(selectProblemsByElement({ problems })).toBe(selectProblemsByElement({ problems }));
    expect(selectProblemsByElement({ problems: [...problems] })).not.toBe(selectProblemsByElement({ problems }));
  });
});
