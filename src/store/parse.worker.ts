import '../graph/jitless.ts';
import type { SavedRequest } from './earlyRead.ts';
import type { ParseRequest } from './offThread.ts';
import { answer, answerSaved } from './parseInWorker.ts';

self.onmessage = (event: MessageEvent<ParseRequest | SavedRequest>) => {
  const request = event.data;
  if (request.kind === 'saved') void answerSaved(request.id, (message) => self.postMessage(message));
  else void answer(request, (message) => self.postMessage(message));
};
