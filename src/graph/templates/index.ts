// Templates are read as strictly as files, against the schemas.
import type { GraphFile } from '../schema.ts';
import approvalGate from './approval-gate.json';
import budgetEvaluate from './budget-evaluate.json';
import { parseGraph } from '../parse.ts';
import { describeProblems } from '../problems.ts';
import { blankGraph } from './builtIn.ts';
import graphEngineer from './graph-engineer.json';
// A template with a folder of its own: its .mcp.json and the files it works on (examples/files-agent/).
import filesAgent from '../../../examples/files-agent/graph.json';
import securityclaw from './securityclaw.json';

/** A built-in template's graph, read as strictly as a file: a fresh copy at each call. */
export const fromJson = (id: string, json: unknown) => () => {
  const result = parseGraph(json);
  if (!result.ok) throw new Error(`built-in template ${id} is not a valid graph:\n${describeProblems(result.problems)}`);
  return result.value;
};

export interface Template {
  id: string;
  title: string;
  summary: string;
  graph: () => GraphFile;
}

export const TEMPLATES: readonly Template[] = [
  { id: 'securityclaw', title: 'SecurityClaw triage', summary: 'decide → execute → evaluate → respond, or recover and re-plan, or stop', graph: fromJson('securityclaw', securityclaw) },
  { id: 'graph-engineer', title: 'Graph Engineer', summary: 'COLLECT → REASON → ACT → VERIFY, VERIFY looping back to REASON', graph: fromJson('graph-engineer', graphEngineer) },
  { id: 'files-agent', title: 'Graph Engineer on your files', summary: 'COLLECT → REASON → ACT → VERIFY on real files through an MCP server: reads go through, a write is denied, approved once, then written', graph: fromJson('files-agent', filesAgent) },
  { id: 'budget-evaluate', title: 'Budget: evaluate, then stop', summary: 'seed 001: once the budget is spent no further call, Evaluate still judges what was gathered, then the run stops', graph: fromJson('budget-evaluate', budgetEvaluate) },
  { id: 'approval-gate', title: 'Approval gate', summary: 'a write denied in read-only mode → a person approves it once, or denies and the run stops', graph: fromJson('approval-gate', approvalGate) },
  { id: 'blank', title: 'Blank', summary: 'an empty canvas', graph: blankGraph },
];

export const DEFAULT_TEMPLATE_ID = 'securityclaw';
export const findTemplate = (id: string): Template | undefined => TEMPLATES.find((template) => template.id === id);
