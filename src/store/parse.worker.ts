import '../graph/jitless.ts';
import { parseRequest, type ParseRequest } from './offThread.ts';

self.onmessage = (event: MessageEvent<ParseRequest>) => {
  self.postMessage(parseRequest(event.data));
};
