import '../graph/jitless.ts';
import { answer, type ParseRequest } from './offThread.ts';

self.onmessage = (event: MessageEvent<ParseRequest>) => {
  void answer(event.data, (message) => self.postMessage(message));
};
