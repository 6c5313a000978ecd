/** A long run's trace file made in Node, as the app's Export trace writes it: for the timeline rows when the run section is not run. */
import { serializeGraph } from '../src/graph/index.ts';
import { createController } from '../src/runtime/index.ts';
import { serializeTrace } from '../src/runtime/trace.ts';
import { readGenerated } from './graphs.ts';

export const traceOfRun = async (document: Record<string, unknown>): Promise<string> => {
  const graph = readGenerated(document);
  const controller = createController(graph, { compact: true });
  await controller.run();
  return serializeTrace({ ...controller.trace, graphFile: JSON.parse(serializeGraph(graph)) as Record<string, unknown> });
};
