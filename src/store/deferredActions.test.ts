import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { deferredActions } from './deferredActions.ts';

interface Counter {
  count: number;
  add: (by: number) => number | Promise<number>;
  loadAdd: () => Promise<void>;
}

const counter = (made: { count: number }) => create<Counter>()((set, get) => {
  const { standIns, load } = deferredActions<Counter, 'add'>(set, get, ['add'], async () => {
    made.count += 1;
    return {
      add: (by: number) => {
        set({ count: get().count + by });
        return get().count;
      },
    };
  });
  return { count: 0, ...standIns, loadAdd: load };
});

describe('actions whose code loads later', () => {
  it('load their code on first use, then do what was asked with what was passed', async () => {
    const made = { count: 0 };
    const store = counter(made);
    expect(await store.getState().add(2)).toBe(2);
    // Once loaded, the action is the real one: called at once, answering at once.
    expect(store.getState().add(3)).toBe(5);
    expect(made.count).toBe(1);
  });

  it('are put in at once by load, made once even when the store is reset to its stand-ins', async () => {
    const made = { count: 0 };
    const store = counter(made);
    const initial = store.getState();
    await store.getState().loadAdd();
    expect(store.getState().add(1)).toBe(1);
    store.setState(initial, true);
    expect(store.getState().add(1)).toBeInstanceOf(Promise);
    await store.getState().loadAdd();
    expect(store.getState().add(1)).toBe(2);
    expect(made.count).toBe(1);
  });
});
