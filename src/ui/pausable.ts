/**
 * Work that can stop between its parts: a generator that yields where the page may take its turn,
 * so that the same code runs at once (`finish`) or between frames (`finishInSlices`).
 */
export type Pausable<T> = Generator<void, T, void>;

/** Does all of the work now. */
export const finish = <T>(work: Pausable<T>): T => {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
};

/** Does the work in slices of about `sliceMs`, letting the page draw frames and answer input between them. */
export const finishInSlices = async <T>(work: Pausable<T>, sliceMs = 4): Promise<T> => {
  for (;;) {
    const until = performance.now() + sliceMs;
    for (;;) {
      const step = work.next();
      if (step.done) return step.value;
      if (performance.now() >= until) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
};
