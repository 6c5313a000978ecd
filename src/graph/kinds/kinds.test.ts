import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KINDS, KIND_LIST, NODE_KINDS, kindDefinition, type AnyKindDefinition } from './index.ts';
import { KIND_SCHEMAS, kindSchemas } from './schemas.ts';
import { KIND_VALIDATION } from './validation.ts';

/** SPEC §1: the field groups each kind owns and the outcomes it reports; and how Mermaid draws it. */
const SPEC = {
  reason: { writes: ['plan', 'reasoning'], outcomes: ['ok', 'repeated', 'error'], title: 'Reason', mermaid: 'box' },
  collect: { writes: ['collected'], outcomes: ['ok', 'empty', 'error'], title: 'Collect', mermaid: 'box' },
  act: { writes: ['results', 'execution_error'], outcomes: ['ok', 'empty', 'error', 'denied'], title: 'Act', mermaid: 'box' },
  verify: { writes: ['evaluation', 'verified'], outcomes: ['sufficient', 'exhausted', 'continue'], title: 'Verify', mermaid: 'rhombus' },
  recover: { writes: ['recovery', 'failures'], outcomes: ['recovered', 'needs_human', 'no_path'], title: 'Recover', mermaid: 'box' },
  approve: { writes: ['approval'], outcomes: ['approved', 'denied'], title: 'Approve', mermaid: 'rhombus' },
  respond: { writes: ['response'], outcomes: [], title: 'Respond', mermaid: 'stadium' },
  stop: { writes: [], outcomes: [], title: 'Stop', mermaid: 'stadium' },
} as const;

describe('node kinds', () => {
  it('are registered once each, in palette order', () => {
    expect(KIND_LIST.map((definition) => definition.kind)).toEqual([...NODE_KINDS]);
    expect(Object.keys(KINDS)).toEqual([...NODE_KINDS]);
  });

  for (const kind of NODE_KINDS) {
    it(`${kind}: SPEC title, outcomes, owned fields and Mermaid shape; defaults parse; summary reads`, () => {
      const definition = kindDefinition(kind);
      expect({ writes: definition.writes, outcomes: definition.outcomes, title: definition.title, mermaid: definition.mermaid }).toEqual(SPEC[kind]);
      expect(definition.terminal).toBe(SPEC[kind].outcomes.length === 0);
      const config = kindSchemas(kind).config.parse({}) as Record<string, unknown>;
      expect(definition.summary(config).length).toBeGreaterThan(0);
      expect(definition.summary(config).every((line) => typeof line === 'string' && line.length > 0)).toBe(true);
      // An inspector field edits a config key: a required one must be there in the defaults.
      for (const field of definition.fields) {
        if ('optional' in field && field.optional) continue;
        expect(Object.keys(config)).toContain(field.key.split('.')[0]);
      }
    });
  }

  it('defaults follow the SPEC: retry 3 on timeout and parse_error, minRecords 1, stop reason stopped', () => {
    expect(KIND_SCHEMAS.act.config.parse({}).retry).toEqual({ maxAttempts: 3, retryOn: ['timeout', 'parse_error'] });
    expect(KIND_SCHEMAS.verify.config.parse({})).toEqual({ minRecords: 1 });
    expect(KIND_SCHEMAS.stop.config.parse({})).toEqual({ reason: 'stopped' });
    expect(KIND_SCHEMAS.stop.config.safeParse({ reason: 'Not Snake' }).success).toBe(false);
  });

  it('each definition carries its skill references and the outcomes its config adds', () => {
    expect(KINDS.act.skillRefs(KIND_SCHEMAS.act.config.parse({ skill: 'a', loop: { decider: 'd', tools: ['t'] } }))).toEqual([
      { skill: 'a', where: 'config.skill' }, { skill: 'd', where: 'config.loop.decider' }, { skill: 't', where: 'config.loop.tools[0]' },
    ]);
    // The inner loop adds max_iter to the outcomes of the three kinds that may run one, and only with a loop.
    expect(KINDS.verify.outcomesFor?.(KIND_SCHEMAS.verify.config.parse({ loop: { decider: 'd' } }))).toContain('max_iter');
    expect(KINDS.collect.outcomesFor?.(KIND_SCHEMAS.collect.config.parse({}))).not.toContain('max_iter');
    // Seed 003 runs every node through the same loop: a loop adds error, denied (not to Collect, which only reads) and max_iter.
    expect(KINDS.reason.outcomesFor?.(KIND_SCHEMAS.reason.config.parse({ loop: { decider: 'd' } }))).toEqual(['ok', 'repeated', 'error', 'denied', 'max_iter']);
    expect(KINDS.verify.outcomesFor?.(KIND_SCHEMAS.verify.config.parse({ loop: { decider: 'd' } }))).toEqual(['sufficient', 'exhausted', 'continue', 'error', 'denied', 'max_iter']);
    expect(KINDS.act.outcomesFor?.(KIND_SCHEMAS.act.config.parse({ loop: { decider: 'd' } }))).toEqual(['ok', 'empty', 'error', 'denied', 'max_iter']);
    expect(KINDS.collect.outcomesFor?.(KIND_SCHEMAS.collect.config.parse({ loop: { decider: 'd' } }))).toEqual(['ok', 'empty', 'error', 'max_iter']);
    expect(KINDS.reason.skillRefs(KIND_SCHEMAS.reason.config.parse({ loop: { decider: 'd', tools: ['t'] } }))).toEqual([{ skill: 'd', where: 'config.loop.decider' }, { skill: 't', where: 'config.loop.tools[0]' }]);
    expect(KINDS.reason.summary(KIND_SCHEMAS.reason.config.parse({ loop: { decider: 'd', tools: ['t'] } }))).toEqual(['loop: d → t, max_iter 5', 'plan: done output']);
    expect(KINDS.verify.summary(KIND_SCHEMAS.verify.config.parse({ loop: { decider: 'd', tools: ['t'] }, verdictFrom: 'tool' }))).toEqual(['loop: d → t, max_iter 5', 'verdict: tool ok']);
  });

  it('have schemas for their config and for exactly the state fields they write', () => {
    expect(Object.keys(KIND_SCHEMAS)).toEqual([...NODE_KINDS]);
    for (const definition of KIND_LIST) expect(Object.keys(kindSchemas(definition.kind).state), definition.kind).toEqual(definition.writes);
  });

  it('never let two kinds own the same field group (context isolation)', () => {
    const owners = KIND_LIST.flatMap((definition) => definition.writes);
    expect(new Set(owners).size).toBe(owners.length);
  });

  it('carry the SPEC kinds’ capabilities: who asks a person, grants, writes the final response', () => {
    const capable = (has: (definition: AnyKindDefinition) => unknown) => KIND_LIST.filter(has).map((definition) => definition.kind);
    expect(capable((definition) => definition.interruptsBefore)).toEqual(['approve']);
    expect(NODE_KINDS.filter((kind) => KIND_VALIDATION[kind]?.grantsSkills)).toEqual(['approve']);
    expect(capable((definition) => definition.finalResponse)).toEqual(['respond']);
    expect(capable((definition) => definition.readsOnly)).toEqual(['collect']);
    // A foreign graph's steps are recorded as one kind (serverTrace.ts).
    expect(capable((definition) => definition.foreignSteps)).toHaveLength(1);
    // What an approval grants: an Act node's skills, a recovery rule's, a plan's actions; never a planner's or a judge's.
    const grants = (kind: keyof typeof KINDS, where: string) => KIND_VALIDATION[kind]?.approvable?.({ skill: 's', where }) ?? false;
    expect([grants('act', 'config.skill'), grants('recover', 'config.rules[0].skill'), grants('reason', 'config.plans[0].actions[0].skill')]).toEqual([true, true, true]);
    expect([grants('reason', 'config.skill'), grants('reason', 'config.loop.tools[0]'), grants('verify', 'config.judge'), grants('collect', 'config.skills[0]')]).toEqual([false, false, false, false]);
  });

  it('a kind that asks a person takes the question and the answers given in advance in its config; one that writes the final response ends the run', () => {
    for (const definition of KIND_LIST.filter((candidate) => candidate.interruptsBefore))
      expect(kindSchemas(definition.kind).config.safeParse({ prompt: 'Allow it?', answers: ['approved', 'denied'] }).success, definition.kind).toBe(true);
    for (const definition of KIND_LIST.filter((candidate) => candidate.finalResponse)) expect(definition.terminal, definition.kind).toBe(true);
  });
});

// Adding a kind edits kinds/ (and the executors beside them), nothing else: code elsewhere asks the
// definition for a capability (interruptsBefore, finalResponse, approvable, a field's list editor…)
// instead of naming a kind. These are the ways code names one.
const SRC = fileURLToPath(new URL('../..', import.meta.url));
const KIND = NODE_KINDS.join('|');
const QUOTE = '[\'"`]';
const NAMING_A_KIND = [
  new RegExp(`kind\\s*[!=]==?\\s*${QUOTE}(?:${KIND})${QUOTE}`), // node.kind === 'approve'
  new RegExp(`${QUOTE}(?:${KIND})${QUOTE}\\s*[!=]==?\\s*[\\w.?]*kind\\b`), // 'approve' === node.kind
  new RegExp(`\\bcase\\s+${QUOTE}(?:${KIND})${QUOTE}\\s*:`), // case 'reason':
  new RegExp(`\\bkind\\s*:\\s*${QUOTE}(?:${KIND})${QUOTE}`), // { kind: 'act' }
  new RegExp(`\\b(?:KINDS|EXECUTORS)\\s*(?:\\.\\s*(?:${KIND})\\b|\\[\\s*${QUOTE}(?:${KIND})${QUOTE})`), // EXECUTORS.respond
  new RegExp(`<\\s*${QUOTE}(?:${KIND})${QUOTE}\\s*>`), // NodeOfKind<'reason'>
  new RegExp(`${QUOTE}(?:${KIND}):\\w`), // 'recover:rules'
  new RegExp(`${QUOTE}(?:${KIND})${QUOTE}\\s*,\\s*${QUOTE}(?:${KIND})${QUOTE}`), // ['act', 'recover']
  new RegExp(`\\[\\s*${QUOTE}(?:${KIND})${QUOTE}\\s*\\]`), // ['approve'].includes(kind)
];
const namesAKind = (line: string) => NAMING_A_KIND.some((pattern) => pattern.test(line));

/** The app's and the command line's sources outside the kind registry and the executors; tests may name kinds. */
const sourcesOutsideKinds = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['graph/kinds', 'runtime/kinds'].includes(relative(SRC, path)) ? [] : sourcesOutsideKinds(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });

describe('nothing outside kinds/ names a kind', () => {
  it.each([
    "if (node?.kind !== 'approve') return null;",
    "const approvals = graph.nodes.filter((node) => node.kind === 'approve');",
    '    case "reason":',
    "steps.push({ step: 0, node: id, kind: 'act', outcome: null });",
    'const result = await EXECUTORS.respond(context);',
    "  'recover:rules': ({ value }) => <RecoverRulesEditor rules={value} />,",
    "const grants = ['act', 'recover'].includes(node.kind);",
    "type Planner = NodeOfKind<'reason'>;",
  ])('sees a kind named in code: %s', (line) => {
    expect(namesAKind(line)).toBe(true);
  });

  it.each([
    "if (!kindDefinition(node.kind).interruptsBefore) return null;",
    "useFileNotice.setState({ notice: { id, kind: 'changed', text } });",
    "if (row.type === 'stop') return null;",
    "setRule(index, 'reason', value);",
  ])('does not take other words for kinds: %s', (line) => {
    expect(namesAKind(line)).toBe(false);
  });

  it('in any source file outside src/graph/kinds and src/runtime/kinds', () => {
    const files = sourcesOutsideKinds(SRC);
    expect(files.length).toBeGreaterThan(100);
    const named = files.flatMap((file) =>
      readFileSync(file, 'utf8').split('\n').flatMap((line, at) => (namesAKind(line) ? [`${relative(SRC, file)}:${at + 1}: ${line.trim()}`] : [])));
    expect(named).toEqual([]);
  });
});
