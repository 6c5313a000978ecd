import { describe, expect, it } from 'vitest';
import { KIND_LIST } from './kinds/index.ts';
import { kindSchemas } from './kinds/schemas.ts';
import { fieldShapesOf, parseStateEdit, STATE_FIELDS } from './state.ts';

describe('the state schema', () => {
  it('has a typed field for each kind’s field group and the runtime’s fields; a kind writes exactly its schema’s fields', () => {
    for (const kind of KIND_LIST) expect(kind.writes).toEqual(Object.keys(kindSchemas(kind.kind).state));
    expect(Object.keys(STATE_FIELDS)).toEqual(['round', 'steps', 'tokensUsed', 'plan', 'reasoning', 'collected', 'results', 'execution_error', 'evaluation', 'verified', 'recovery', 'failures', 'approval', 'response']);
    expect(fieldShapesOf().evaluation).toEqual(['evidence_sufficient', 'plan_exhausted', 'reason', 'reasoning', 'records']);
  });

  it('accepts an edit that fits, the graph’s own fields as any JSON', () => {
    const edit = { round: 2, evaluation: { evidence_sufficient: true, plan_exhausted: false, reason: 'sufficient', reasoning: 'edited' }, question: ['anything'] };
    expect(parseStateEdit(edit)).toEqual({ ok: true, value: edit });
  });

  it('given the graph, refuses a field its run does not have', () => {
    const graph = { state: { question: 'q' }, nodes: [{ kind: 'verify' as const }] };
    expect(parseStateEdit({ question: 'other', evaluation: { evidence_sufficient: true, plan_exhausted: false, reason: 'r', reasoning: '' } }, graph).ok).toBe(true);
    const parsed = parseStateEdit({ plan: { actions: [], signature: '', repeated: false } }, graph);
    expect(parsed.ok === false && parsed.problems[0]).toEqual({ path: 'plan', message: 'this graph\'s state has no field "plan" (it has question, round, steps, tokensUsed, evaluation, verified)' });
  });

  it('refuses an edit that does not fit, naming each path', () => {
    const parsed = parseStateEdit({
      round: 'two', steps: -1, execution_error: { outcome: 'exploded', skill: 's', message: 'm' },
      failures: [{ round: 1, reason: 'timeout', action: 'retry' }], _run: {},
    });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.map((problem) => problem.path)).toEqual(['round', 'steps', 'execution_error.outcome', 'failures[0].skill', '_run']);
  });
});
