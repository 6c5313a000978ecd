import type { Executor } from './types.ts';

export const executeStop: Executor<'stop'> = async ({ node }) => ({
  outcome: null, writes: {}, attempts: [], note: `forced stop: ${node.config.reason}`,
  stop: { reason: node.config.reason, explain: `stop node ${node.id} ended the run with ${node.config.reason}: stopping is not losing` },
});
