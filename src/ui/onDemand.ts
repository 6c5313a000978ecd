import { useEffect, useState } from 'react';

/**
 * A module loaded on demand (`load`, also to load it ahead), and used at once once it is there:
 * `useModule(wanted)` gives it (null until it has loaded) and loads it when wanted. Not React's lazy
 * and Suspense: a lazy component suspends on its first render even when its module has loaded (its
 * promise settles a microtask later), and a fallback once shown stays on screen for a throttle's time.
 */
export const onDemand = <M,>(importer: () => Promise<M>) => {
  let module: M | null = null;
  let loading: Promise<M> | null = null;
  const load = () =>
    (loading ??= importer().then((loaded) => {
      module = loaded;
      return loaded;
    }));
  const useModule = (wanted: boolean) => {
    const [, setLoaded] = useState(module);
    useEffect(() => {
      // Also when it has loaded since this render drew without it (another part of the page loaded
      // it): drawn again then, or it would wait for some other change to show.
      if (wanted) void load().then(setLoaded);
    }, [wanted]);
    return module;
  };
  return { load, useModule };
};
