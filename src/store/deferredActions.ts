/**
 * Actions whose code loads after the first screen (the run's and the scenarios', with the
 * debugger's panels). Until then the store holds stand-ins: each loads the code, puts the real
 * actions in the store, then does what was asked, so its answer comes as a promise; the slice
 * declares such an action's answer as `R | Promise<R>`. The slice's `load` puts them in at once
 * (the panels' loader calls it, so buttons answer at once).
 */
type Later<Action> = Action extends (...args: infer Args) => infer Answer ? (...args: Args) => Promise<Awaited<Answer>> : never;

export const deferredActions = <State, K extends keyof State & string>(
  set: (actions: Pick<State, K>) => void,
  get: () => State,
  names: readonly K[],
  create: () => Promise<Pick<State, K>>,
): { standIns: { [Name in K]: Later<State[Name]> }; load: () => Promise<void> } => {
  let created: Promise<Pick<State, K>> | null = null;
  const standIns = {} as { [Name in K]: Later<State[Name]> };
  // The store may be reset to an earlier state (a test's): the actions go in again, made once.
  const load = async () => {
    const actions = await (created ??= create());
    if (names.some((name) => get()[name] === standIns[name])) set(actions);
  };
  for (const name of names) {
    const standIn = async (...args: unknown[]) => {
      await load();
      return (get()[name] as (...passed: unknown[]) => unknown)(...args);
    };
    standIns[name] = standIn as Later<State[typeof name]>;
  }
  return { standIns, load };
};
