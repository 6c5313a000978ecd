/**
 * A module that loads after the first screen, and calls on it made before it has loaded: kept in
 * order and made once it has, so that a gesture made in that moment is not lost. `current` is the
 * module once loaded (null before), for a question that has an answer without it.
 */
export const deferred = <M>() => {
  let module: M | null = null;
  const waiting: ((loaded: M) => void)[] = [];
  return {
    get current() {
      return module;
    },
    /** Calls `gesture` with the module: now if it has loaded, else once it has. */
    call(gesture: (loaded: M) => void) {
      if (module) gesture(module);
      else waiting.push(gesture);
    },
    /** The module has loaded: the calls kept make it, in the order they were made. */
    loaded(value: M) {
      module = value;
      for (const gesture of waiting.splice(0)) gesture(value);
    },
  };
};
