/**
 * Reads, parses and checks this tab's saved graph while the page's scripts load (earlyRead.ts),
 * then is done: the worker that parses files and traces starts once the first screen is idle.
 */
import '../graph/jitless.ts';
import type { SavedRequest } from './earlyRead.ts';
import { answerSaved } from './savedInWorker.ts';

self.onmessage = (event: MessageEvent<SavedRequest>) => void answerSaved(event.data, self.indexedDB).then((answer) => self.postMessage(answer));
