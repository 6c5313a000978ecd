import { asRecord, type Executor } from './types.ts';

/** The skill a person is asked about: the action the permission check refused, else the recovery's. */
export const deniedAction = (state: Readonly<Record<string, unknown>>): { skill?: string; args?: Record<string, unknown> } => {
  const results = Array.isArray(state.results) ? state.results.map(asRecord) : [];
  const denied = results.find((result) => result?.outcome === 'permission_denied');
  if (denied) return { skill: String(denied.skill), args: asRecord(denied.args) ?? {} };
  const recovery = asRecord(state.recovery);
  return typeof recovery?.skill === 'string' ? { skill: recovery.skill } : {};
};

/** The answer given in advance for this run of the node (`config.answers`, one per visit), if any. */
export const scriptedAnswer = (config: { answers?: readonly ('approved' | 'denied')[] }, visits: number) => config.answers?.[visits];

/** Whether the answer a step wrote came from a person, asked or in advance (not `auto`, not the headless default). */
export const answeredByPerson = (writes: Readonly<Record<string, unknown>>) => {
  const by = asRecord(writes.approval)?.by;
  return by === 'person' || by === 'answers';
};

/**
 * A person's decision, else the answer given in advance for this visit, else `config.auto` (a
 * headless run without one denies, the safe default, and the graph routes `denied`). Approval
 * grants the denied skill once.
 */
export const executeApprove: Executor<'approve'> = async (context) => {
  const { node, state } = context;
  const { skill } = deniedAction(state);
  // A loop's decider refused (it is in execution_error, not among the tool calls' results) is not
  // granted: it is asked every iteration, a grant is for one call (validation: permission_conflict).
  const failed = asRecord(state.execution_error);
  const decider = !skill && failed?.outcome === 'permission_denied' && typeof failed.skill === 'string' ? failed.skill : undefined;
  const scripted = scriptedAnswer(node.config, context.visits);
  const decision = context.decision ?? scripted ?? (node.config.auto === 'approve' ? 'approved' : 'denied');
  const by = context.decision ? 'person' : scripted ? 'answers' : node.config.auto ? 'auto' : 'default (headless, no auto)';
  // Only a live person's approval may lift what the person granted: `auto` and `answers` come from the file.
  if (decision === 'approved' && skill) context.grant(skill, context.decision !== undefined);
  return {
    outcome: decision,
    writes: { approval: { decision, skill: skill ?? null, by } },
    attempts: [],
    note: { is: 'approval', decision, by, ...(skill ? { skill } : {}), ...(decider ? { decider } : {}) },
  };
};
