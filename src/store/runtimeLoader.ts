/** The runtime (and LangGraph), loaded on demand: the first screen's bundle has neither. */
type Runtime = typeof import('../runtime/index.ts');
let runtimeModule: Promise<Runtime> | null = null;
let loadedRuntime: Runtime | null = null;
/** The runtime, when it has loaded. */
export const runtimeIfLoaded = () => loadedRuntime;
// Loaded on the first run or trace, so the runtime and LangGraph stay out of the first screen's bundle.
export const loadRuntime = () =>
  (runtimeModule ??= import('../runtime/index.ts').then((module) => {
    loadedRuntime = module;
    return module;
  }));

/** Loads the runtime (and LangGraph) ahead of the first Run, once the first screen is up. */
export const warmUpRuntime = () => void loadRuntime();
