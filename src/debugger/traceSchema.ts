/** The trace format v1 (SPEC §2) as a zod schema: an imported trace is untrusted input. */
import { z } from 'zod';
import { CallOutcome, findForbiddenKeys, NODE_KINDS, parseJson, parseWith, type ParseResult } from '../graph/index.ts';
import { TRACE_FORMAT, TRACE_VERSION, type Trace } from '../runtime/trace.ts';

const State = z.record(z.string(), z.unknown());
const Count = z.number().int().min(0);

const Attempt = z.strictObject({
  n: z.number().int().min(1),
  skill: z.string(),
  outcome: CallOutcome,
  tokens: z.number().min(0),
  error: z.string().optional(),
  records: Count.optional(),
  durationMs: z.number().min(0).optional(),
  retry: z.string().optional(),
  action: Count.optional(),
});

const EdgeCheck = z.strictObject({
  id: z.string(),
  target: z.string().optional(),
  matched: z.boolean(),
  explain: z.string(),
  skipped: z.boolean().optional(),
});

const Stop = z.strictObject({ reason: z.string(), explain: z.string() });

const GuardCheck = z.strictObject({
  name: z.enum(['max_rounds', 'max_steps', 'budget_exhausted']),
  value: z.number(),
  limit: z.number().nullable(),
  passed: z.boolean(),
  explain: z.string(),
});

const TraceStep = z.strictObject({
  step: z.number().int().min(1),
  round: Count,
  node: z.string(),
  kind: z.enum(NODE_KINDS),
  outcome: z.string().nullable(),
  attempts: z.array(Attempt),
  reads: z.array(z.string()),
  writes: State,
  edges: z.array(EdgeCheck),
  fired: z.strictObject({ id: z.string(), target: z.string(), reason: z.string() }).nullable(),
  guard: Stop.nullable(),
  durationMs: z.number().min(0),
  guards: z.array(GuardCheck).optional(),
  note: z.string().optional(),
  tokensUsed: z.number().min(0).optional(),
  stateBefore: State.optional(),
  blindRetry: z.boolean().optional(),
  stop: Stop.optional(),
});

export const TraceSchema = z
  .strictObject({
    format: z.literal(TRACE_FORMAT),
    version: z.literal(TRACE_VERSION),
    graph: z.string(),
    seed: z.number().int(),
    stopReason: z.string().nullable(),
    rounds: Count,
    tokensUsed: z.number().min(0),
    finalState: State,
    steps: z.array(TraceStep),
    stopExplain: z.string().optional(),
    scenario: z.string().optional(),
    forkedFrom: z.strictObject({ step: Count, edited: z.array(z.string()), overridden: z.array(z.string()) }).optional(),
  })
  .check((context) => {
    context.value.steps.forEach((step, index) => {
      if (step.step !== index + 1)
        context.issues.push({ code: 'custom', input: step.step, path: ['steps', index, 'step'], message: `expected step ${index + 1}, got ${step.step}: steps must be numbered in order` });
    });
  });

/** Untrusted text to a trace, or the problems with the paths that failed. */
export const parseTrace = (text: string): ParseResult<Trace> => {
  const json = parseJson(text);
  if (!json.ok) return json;
  const forbidden = findForbiddenKeys(json.value);
  if (forbidden.length > 0) return { ok: false, problems: forbidden };
  return parseWith(TraceSchema, json.value) as ParseResult<Trace>;
};
