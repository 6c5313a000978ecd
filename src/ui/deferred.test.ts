import { describe, expect, it } from 'vitest';
import { deferred } from './deferred.ts';

describe('deferred', () => {
  it('keeps calls made before the module loads and makes them in order once it has', () => {
    const made: string[] = [];
    const edits = deferred<{ add: (what: string) => void }>();
    edits.call((module) => module.add('first'));
    edits.call((module) => module.add('second'));
    expect(made).toEqual([]);
    expect(edits.current).toBeNull();
    edits.loaded({ add: (what) => made.push(what) });
    expect(made).toEqual(['first', 'second']);
  });

  it('makes a call at once once loaded, and each kept call once only', () => {
    const made: string[] = [];
    const edits = deferred<{ add: (what: string) => void }>();
    edits.call((module) => module.add('early'));
    const module = { add: (what: string) => void made.push(what) };
    edits.loaded(module);
    edits.call((loaded) => loaded.add('late'));
    expect(made).toEqual(['early', 'late']);
    expect(edits.current).toBe(module);
  });
});
