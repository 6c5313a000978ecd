/**
 * Graph files as fast-check arbitraries, for property tests (never imported by the app). They
 * write what a person may write (defaults left out, ids named like Object methods included), so
 * the parser's defaults and the runtime see the same variety a real file brings.
 */
import fc from 'fast-check';
import { CALL_OUTCOMES } from './common.ts';
import { KIND_EXAMPLES, jsonKey as key, jsonLeaf, jsonRecord as record } from './kinds/examples.ts';
import { KIND_LIST, NODE_KINDS } from './kinds/index.ts';
import { OPS, type When } from './when.ts';

/** Ids a file may use, with the names every object inherits among them. */
const idArbitrary = fc.oneof(
  fc.constantFrom('toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__', 'then', 'length', '_', 'node-2', 'A_b-9'),
  fc.integer({ min: 0, max: 99 }).map((n) => `n${n}`),
);

/** What a scripted decider or judge may answer: a tool call, done, a judgement, or something that does not parse. */
const replyArbitrary = fc.oneof(
  fc.record({ tool: idArbitrary, args: record }),
  fc.record({ done: fc.constant(true), output: fc.record({ sufficient: fc.boolean(), exhausted: fc.boolean() }, { requiredKeys: [] }) }),
  fc.record({ sufficient: fc.boolean(), exhausted: fc.boolean(), reason: fc.constantFrom('coverage_low', 'sufficient') }, { requiredKeys: ['sufficient'] }),
  jsonLeaf,
);

const mockSkill = fc.record(
  {
    type: fc.constant('mock'),
    access: fc.constantFrom('read', 'write', 'exec'),
    tokens: fc.integer({ min: 0, max: 50 }),
    script: fc.array(
      fc.record({ outcome: fc.constantFrom(...CALL_OUTCOMES), records: fc.array(record, { maxLength: 3 }), tokens: fc.integer({ min: 0, max: 50 }), delayMs: fc.integer({ min: 0, max: 100 }), reply: replyArbitrary }, { requiredKeys: ['outcome'] }),
      { minLength: 1, maxLength: 4 },
    ),
  },
  { requiredKeys: ['type', 'script'] },
);

/** Outcomes of every kind, so that an edge may name one its source never has. */
const OUTCOMES = [...new Set(KIND_LIST.flatMap((definition) => definition.outcomes))];

const PATHS = ['round', 'steps', 'tokensUsed', 'evaluation.plan_exhausted', 'evaluation.reason', 'evaluation.evidence_sufficient', 'recovery.action', 'plan.repeated'];

const whenArbitrary: fc.Arbitrary<When> = fc.letrec<{ when: When }>((tie) => ({
  when: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<When>('always', 'otherwise'),
    fc.constantFrom(...OUTCOMES).map((outcome) => ({ outcome })),
    fc.record({ path: fc.constantFrom(...PATHS), op: fc.constantFrom(...OPS), value: jsonLeaf }),
    fc.record({ all: fc.array(tie('when'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ any: fc.array(tie('when'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ not: tie('when') }),
  ),
})).when;

/** A graph file as JSON a person could write: valid, though its validation may warn or fail. */
export const graphFileArbitrary = fc
  .record({
    ids: fc.uniqueArray(idArbitrary, { minLength: 1, maxLength: 7 }),
    skillNames: fc.uniqueArray(idArbitrary, { minLength: 1, maxLength: 3 }),
  })
  .chain(({ ids, skillNames }) =>
    fc.record(
      {
        format: fc.constant('loopscope/graph'),
        version: fc.constant(1),
        name: fc.string({ minLength: 1, maxLength: 20 }),
        entry: fc.constantFrom(...ids),
        finally: fc.constantFrom(...ids),
        limits: fc.record({ maxRounds: fc.integer({ min: 1, max: 5 }), maxSteps: fc.integer({ min: 1, max: 40 }), tokenBudget: fc.integer({ min: 0, max: 500 }), onBudget: fc.constantFrom('stop', 'evaluate') }, { requiredKeys: [] }),
        permissions: fc.record({ mode: fc.constantFrom('read-only', 'workspace', 'full') }),
        state: fc.dictionary(key, fc.oneof(jsonLeaf, record), { maxKeys: 3 }),
        skills: fc.tuple(...skillNames.map(() => mockSkill)).map((skills) => Object.fromEntries(skillNames.map((name, index) => [name, skills[index]]))),
        nodes: fc.tuple(
          ...ids.map((id) =>
            fc.constantFrom(...NODE_KINDS).chain((kind) =>
              fc.record(
                { id: fc.constant(id), kind: fc.constant(kind), label: fc.string({ maxLength: 12 }), position: fc.record({ x: fc.integer({ min: -2000, max: 2000 }), y: fc.integer({ min: -2000, max: 2000 }) }), config: KIND_EXAMPLES[kind](fc.constantFrom(...skillNames)) },
                { requiredKeys: ['id', 'kind'] },
              ),
            ),
          ),
        ),
        edges: fc.array(fc.record({ source: fc.constantFrom(...ids), target: fc.constantFrom(...ids), when: whenArbitrary }, { requiredKeys: ['source', 'target'] }), { maxLength: 12 }).map((edges) => edges.map((edge, index) => ({ id: `e${index}`, ...edge }))),
      },
      { requiredKeys: ['format', 'version', 'name', 'entry', 'nodes'] },
    ),
  );
