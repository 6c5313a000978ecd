/** Auto layout off the main thread: ELK is big and a large graph takes it seconds. */
import type { GraphFile } from '../graph/schema.ts';
import type { Positions } from './layout.ts';

export interface LayoutRequest {
  graph: GraphFile;
  /** The room of the canvas a fit may use, screen px: the layout that fits it best is chosen (layout.ts). */
  canvas?: { width: number; height: number };
}

/** Lays out in a worker, so a large graph does not freeze the page; loaded in place where workers do not exist. */
export const layoutInWorker = (request: LayoutRequest): Promise<Positions> => {
  if (typeof Worker === 'undefined') return import('./layout.ts').then(({ layoutGraph }) => layoutGraph(request.graph, request.canvas));
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<Positions | { error: string }>) => {
      worker.terminate();
      if ('error' in event.data && typeof event.data.error === 'string') reject(new Error(event.data.error));
      else resolve(event.data as Positions);
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'the layout worker failed'));
    };
    worker.postMessage(request);
  });
};
