/**
 * Stand-ins for actions whose code loads later: each loads that code, which puts the real actions in
 * the store, then does what was asked. Called before then, an action answers with a promise,
 * whatever it returns once loaded: code that needs its answer at once imports the actions' module.
 */
export const deferredActions = <State, K extends keyof State & string>(get: () => State, names: readonly K[], load: () => Promise<unknown>): Pick<State, K> => {
  const standIns: Partial<Record<K, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const name of names) {
    const standIn = async (...args: unknown[]): Promise<unknown> => {
      await load();
      const action = get()[name];
      if (action === standIn) throw new Error(`The store's ${name} did not load.`);
      return (action as (...passed: unknown[]) => unknown)(...args);
    };
    standIns[name] = standIn;
  }
  return standIns as unknown as Pick<State, K>;
};
