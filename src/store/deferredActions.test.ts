import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { deferredActions } from './deferredActions.ts';

interface Counter {
  count: number;
  add: (by: number) => number;
}

describe('actions whose code loads later', () => {
  it('load their code on first use, then do what was asked with what was passed', async () => {
    let loads = 0;
    const store = create<Counter>()((_set, get) => ({
      count: 0,
      ...deferredActions(get, ['add'], async () => {
        loads += 1;
        const add = (by: number) => {
          store.setState({ count: store.getState().count + by });
          return store.getState().count;
        };
        store.setState({ add });
      }),
    }));
    expect(await store.getState().add(2)).toBe(2);
    // Once loaded, the action is the real one: called at once, answering at once.
    expect(store.getState().add(3)).toBe(5);
    expect(loads).toBe(1);
  });

  it('say which action did not load when its code left the stand-in in place', async () => {
    const store = create<Counter>()((_set, get) => ({ count: 0, ...deferredActions(get, ['add'], async () => {}) }));
    await expect(store.getState().add(1)).rejects.toThrow("The store's add did not load.");
  });
});
