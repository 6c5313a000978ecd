import { describe, expect, it } from 'vitest';
import { KINDS, KIND_LIST, NODE_KINDS, kindDefinition } from './index.ts';

/** SPEC §1: the field groups each kind owns and the outcomes it reports; and how Mermaid draws it. */
const SPEC = {
  reason: { writes: ['plan'], outcomes: ['ok', 'repeated', 'error'], title: 'Reason', mermaid: 'box' },
  collect: { writes: ['collected'], outcomes: ['ok', 'empty', 'error'], title: 'Collect', mermaid: 'box' },
  act: { writes: ['results', 'execution_error'], outcomes: ['ok', 'empty', 'error', 'denied'], title: 'Act', mermaid: 'box' },
  verify: { writes: ['evaluation'], outcomes: ['sufficient', 'exhausted', 'continue'], title: 'Verify', mermaid: 'rhombus' },
  recover: { writes: ['recovery', 'failures'], outcomes: ['recovered', 'needs_human', 'no_path'], title: 'Recover', mermaid: 'box' },
  approve: { writes: ['approval'], outcomes: ['approved', 'denied'], title: 'Approve', mermaid: 'rhombus' },
  respond: { writes: ['response'], outcomes: [], title: 'Respond', mermaid: 'stadium' },
  stop: { writes: [], outcomes: [], title: 'Stop', mermaid: 'stadium' },
} as const;

describe('node kinds', () => {
  it('are registered once each, in palette order', () => {
    expect(KIND_LIST.map((definition) => definition.kind)).toEqual([...NODE_KINDS]);
    expect(Object.keys(KINDS)).toEqual([...NODE_KINDS]);
  });

  for (const kind of NODE_KINDS) {
    it(`${kind}: SPEC title, outcomes, owned fields and Mermaid shape; defaults parse; summary reads`, () => {
      const definition = kindDefinition(kind);
      expect({ writes: definition.writes, outcomes: definition.outcomes, title: definition.title, mermaid: definition.mermaid }).toEqual(SPEC[kind]);
      expect(definition.terminal).toBe(SPEC[kind].outcomes.length === 0);
      const config = definition.config.parse({}) as Record<string, unknown>;
      expect(definition.summary(config).length).toBeGreaterThan(0);
      expect(definition.summary(config).every((line) => typeof line === 'string' && line.length > 0)).toBe(true);
      // An inspector field edits a config key: a required one must be there in the defaults.
      for (const field of definition.fields) {
        if ('optional' in field && field.optional) continue;
        expect(Object.keys(config)).toContain(field.key.split('.')[0]);
      }
    });
  }

  it('defaults follow the SPEC: retry 3 on timeout and parse_error, minRecords 1, stop reason stopped', () => {
    expect(KINDS.act.config.parse({}).retry).toEqual({ maxAttempts: 3, retryOn: ['timeout', 'parse_error'] });
    expect(KINDS.verify.config.parse({})).toEqual({ minRecords: 1 });
    expect(KINDS.stop.config.parse({})).toEqual({ reason: 'stopped' });
    expect(KINDS.stop.config.safeParse({ reason: 'Not Snake' }).success).toBe(false);
  });

  it('each definition carries its skill references: nothing else lists kinds', () => {
    expect(KINDS.act.skillRefs(KINDS.act.config.parse({ skill: 'a', loop: { decider: 'd', tools: ['t'] } }))).toEqual([
      { skill: 'a', where: 'config.skill' }, { skill: 'd', where: 'config.loop.decider' }, { skill: 't', where: 'config.loop.tools[0]' },
    ]);
    // The inner loop adds max_iter to the outcomes of the three kinds that may run one, and only with a loop.
    expect(KINDS.verify.outcomesFor?.(KINDS.verify.config.parse({ loop: { decider: 'd' } }))).toContain('max_iter');
    expect(KINDS.collect.outcomesFor?.(KINDS.collect.config.parse({}))).not.toContain('max_iter');
    // Seed 003 runs every node through the same loop: a loop adds error, denied (not to Collect, which only reads) and max_iter.
    expect(KINDS.reason.outcomesFor?.(KINDS.reason.config.parse({ loop: { decider: 'd' } }))).toEqual(['ok', 'repeated', 'error', 'denied', 'max_iter']);
    expect(KINDS.verify.outcomesFor?.(KINDS.verify.config.parse({ loop: { decider: 'd' } }))).toEqual(['sufficient', 'exhausted', 'continue', 'error', 'denied', 'max_iter']);
    expect(KINDS.act.outcomesFor?.(KINDS.act.config.parse({ loop: { decider: 'd' } }))).toEqual(['ok', 'empty', 'error', 'denied', 'max_iter']);
    expect(KINDS.collect.outcomesFor?.(KINDS.collect.config.parse({ loop: { decider: 'd' } }))).toEqual(['ok', 'empty', 'error', 'max_iter']);
    expect(KINDS.reason.skillRefs(KINDS.reason.config.parse({ loop: { decider: 'd', tools: ['t'] } }))).toEqual([{ skill: 'd', where: 'config.loop.decider' }, { skill: 't', where: 'config.loop.tools[0]' }]);
    expect(KINDS.reason.summary(KINDS.reason.config.parse({ loop: { decider: 'd', tools: ['t'] } }))).toEqual(['loop: d → t, max_iter 5', 'plan: done output']);
    expect(KINDS.verify.summary(KINDS.verify.config.parse({ loop: { decider: 'd', tools: ['t'] }, verdictFrom: 'tool' }))).toEqual(['loop: d → t, max_iter 5', 'verdict: tool ok']);
  });

  it('never let two kinds own the same field group (context isolation)', () => {
    const owners = KIND_LIST.flatMap((definition) => definition.writes);
    expect(new Set(owners).size).toBe(owners.length);
  });
});
