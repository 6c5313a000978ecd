import type { Executor } from './types.ts';

export const executeStop: Executor<'stop'> = async ({ node }) => ({
  outcome: null, writes: {}, attempts: [], note: { is: 'forced_stop', reason: node.config.reason },
  stop: { reason: node.config.reason, why: { is: 'stop_node', node: node.id, reason: node.config.reason } },
});
