import { describe, expect, it } from 'vitest';
import { answersByStep, resumesByRun, writersOf } from './serverAnswers.ts';
import type { TraceStep } from './trace.ts';

const step = (checkpoint: string, waited: boolean, ns?: string) =>
  ({ server: { name: 'n', checkpoint, parentCheckpoint: null, next: [], targets: [], chose: [], conditional: false, ...(waited ? { interrupts: [{ question: '?' }] } : {}), ...(ns ? { ns, parent: 'agent' } : {}) } }) as unknown as TraceStep;
const checkpoint = (id: string, run?: string) => ({ checkpoint: { checkpoint_id: id }, metadata: run ? { run_id: run, source: 'loop' } : { source: 'update' } });

describe("the answers a thread's interrupts were given", () => {
  it('are the resume values of its runs, by run, whatever else the runs carry', () => {
    const runs = [{ run_id: 'r2', kwargs: { command: { resume: 'second' } } }, { run_id: 'r0', kwargs: { input: { a: 1 } } }, { run_id: 'r1', kwargs: { command: { resume: 'first' } } }, null, { kwargs: null }, { run_id: 7, kwargs: { command: { resume: 'x' } } }];
    expect(resumesByRun(runs)).toEqual(new Map([['r2', 'second'], ['r1', 'first']]));
    expect(writersOf([checkpoint('a', 'r1'), checkpoint('b'), { checkpoint: null, metadata: null }])).toEqual(new Map([['a', 'r1']]));
  });

  it('go to the step whose checkpoint the resuming run wrote; a subgraph step takes its parent step\'s answer; a step still waiting gets none', () => {
    const steps = [step('a', false), step('in1', true, 'agent:1'), step('b', true), step('c', true), step('in2', true, 'agent:2')];
    const writers = writersOf([checkpoint('a', 'r0'), checkpoint('b', 'r1'), checkpoint('c', 'r2')]);
    expect(answersByStep(steps, new Map([['r1', 'Brest'], ['r2', 'yes']]), writers)).toEqual(new Map([['in1', 'Brest'], ['b', 'Brest'], ['c', 'yes']]));
    expect(answersByStep(steps, new Map(), writers)).toEqual(new Map());
  });

  it('are not paired in order: a fork after an interrupt resumes its own branch, and each step keeps its own run\'s answer', () => {
    // Thread: `ask` waited (checkpoint w); run r1 resumed it with "Paris" (wrote p1). Then a fork from
    // w: its branch's `ask` was resumed by r2 with "Lyon" (wrote p2). The fork's branch is on screen:
    // its one waiting step is the one r2 resumed, though r1's answer is the oldest.
    const forkBranch = [step('p2', true)];
    const writers = writersOf([checkpoint('p1', 'r1'), checkpoint('p2', 'r2')]);
    const resumes = resumesByRun([{ run_id: 'r2', kwargs: { command: { resume: 'Lyon' } } }, { run_id: 'r1', kwargs: { command: { resume: 'Paris' } } }]);
    expect(answersByStep(forkBranch, resumes, writers)).toEqual(new Map([['p2', 'Lyon']]));
    // A step made by an edit (no run wrote it) gets no answer rather than another run's.
    expect(answersByStep([step('edited', true)], resumes, writersOf([checkpoint('edited')]))).toEqual(new Map());
  });
});
