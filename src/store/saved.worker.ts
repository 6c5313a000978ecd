/**
 * Reads, parses and checks this tab's saved graph while the page's scripts load (earlyRead.ts),
 * then is done: the worker that parses files and traces starts once the first screen is idle.
 */
import '../graph/jitless.ts';
import { answerSaved } from './savedInWorker.ts';

// The worker's name is the id of this tab's graph (empty when it has none).
void answerSaved({ id: self.name || undefined }, self.indexedDB).then((answer) => self.postMessage(answer));
