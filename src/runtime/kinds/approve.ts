import { asRecord, type Executor } from './types.ts';

/** The skill a person is asked about: the action the permission check refused, else the recovery's. */
export const deniedAction = (state: Readonly<Record<string, unknown>>): { skill?: string; args?: Record<string, unknown> } => {
  const results = Array.isArray(state.results) ? state.results.map(asRecord) : [];
  const denied = results.find((result) => result?.outcome === 'permission_denied');
  if (denied) return { skill: String(denied.skill), args: asRecord(denied.args) ?? {} };
  const recovery = asRecord(state.recovery);
  return typeof recovery?.skill === 'string' ? { skill: recovery.skill } : {};
};

/**
 * A person's decision (or `config.auto` when headless; a headless run without one denies, the
 * safe default, and the graph routes `denied`). Approval grants the denied skill once.
 */
export const executeApprove: Executor<'approve'> = async (context) => {
  const { node, state } = context;
  const { skill } = deniedAction(state);
  const decision = context.decision ?? (node.config.auto === 'approve' ? 'approved' : 'denied');
  const by = context.decision ? 'person' : node.config.auto ? 'auto' : 'default (headless, no auto)';
  if (decision === 'approved' && skill) context.grant(skill);
  return {
    outcome: decision,
    writes: { approval: { decision, skill: skill ?? null, by } },
    attempts: [],
    note: decision === 'approved'
      ? `approved by ${by}${skill ? `: ${skill} may run once` : ''}`
      : `denied by ${by}${skill ? `: ${skill} stays refused` : ''}`,
  };
};
