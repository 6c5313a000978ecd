import type { ParseRequest } from './offThread.ts';
import { answer } from './parseInWorker.ts';

self.onmessage = (event: MessageEvent<ParseRequest>) => {
  void answer(event.data, (message) => self.postMessage(message));
};
