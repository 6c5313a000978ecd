import { layoutGraph } from './layout.ts';
import type { LayoutRequest } from './runLayout.ts';

self.onmessage = (event: MessageEvent<LayoutRequest>) => {
  layoutGraph(event.data.graph, event.data.canvas).then(
    (positions) => self.postMessage(positions),
    (error: unknown) => self.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
};
