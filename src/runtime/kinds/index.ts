import type { NodeKind } from '../../graph/index.ts';
import { executeAct } from './act.ts';
import { answeredByPerson, executeApprove } from './approve.ts';
import { executeCollect } from './collect.ts';
import { executeReason } from './reason.ts';
import { executeRecover } from './recover.ts';
import { executeRespond } from './respond.ts';
import { executeStop } from './stop.ts';
import type { Executor } from './types.ts';
import { executeVerify } from './verify.ts';

export * from './types.ts';
export { deniedAction, scriptedAnswer } from './approve.ts';

/** The one place node kinds get their behaviour. */
export const EXECUTORS: { [K in NodeKind]: Executor<K> } = {
  reason: executeReason,
  collect: executeCollect,
  act: executeAct,
  verify: executeVerify,
  recover: executeRecover,
  approve: executeApprove,
  respond: executeRespond,
  stop: executeStop,
};

/**
 * For a kind that asks a person (`interruptsBefore`): whether the answer a step wrote came from a
 * person, which a scenario saved from the run pins (an answer of `auto` stays the graph's).
 */
export const ANSWERED_BY_PERSON: { [K in NodeKind]?: (writes: Readonly<Record<string, unknown>>) => boolean } = {
  approve: answeredByPerson,
};
