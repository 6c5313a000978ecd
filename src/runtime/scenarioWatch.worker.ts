/** Runs the graph's scenarios after each edit, off the page's thread (scenarioWatch.ts; the page's side is store/scenarioWatch.ts). */
import { createWatcher, type WatchRequest } from './scenarioWatch.ts';

const watch = createWatcher((result) => self.postMessage(result));
self.onmessage = (event: MessageEvent<WatchRequest>) => void watch(event.data);
