import { describe, expect, it } from 'vitest';
import { answersByStep, resumeValues } from './serverAnswers.ts';
import type { TraceStep } from './trace.ts';

const step = (checkpoint: string, waited: boolean, ns?: string) =>
  ({ server: { name: 'n', checkpoint, parentCheckpoint: null, next: [], targets: [], chose: [], conditional: false, ...(waited ? { interrupts: [{ question: '?' }] } : {}), ...(ns ? { ns, parent: 'agent' } : {}) } }) as unknown as TraceStep;

describe("the answers a thread's interrupts were given", () => {
  it('are the resume values of its runs, oldest first, whatever else the runs carry', () => {
    const runs = [{ kwargs: { command: { resume: 'second' } } }, { kwargs: { input: { a: 1 } } }, { kwargs: { command: { resume: 'first' } } }, null, { kwargs: null }];
    expect(resumeValues(runs)).toEqual(['first', 'second']);
  });

  it('go to the steps that waited, in order; a subgraph step takes its parent step\'s answer; a step still waiting gets none', () => {
    const steps = [step('a', false), step('in1', true, 'agent:1'), step('b', true), step('c', true), step('in2', true, 'agent:2')];
    expect(answersByStep(steps, ['Brest', 'yes'])).toEqual(new Map([['in1', 'Brest'], ['b', 'Brest'], ['c', 'yes']]));
    expect(answersByStep(steps, [])).toEqual(new Map());
  });
});
