import '../graph/jitless.ts';
import { layoutGraph, type LayoutRequest } from './layout.ts';

self.onmessage = (event: MessageEvent<LayoutRequest>) => {
  self.postMessage(layoutGraph(event.data.graph, event.data.sizes));
};
