import { describe, expect, it } from 'vitest';
import { parseGraph } from '../parse.ts';
import { serializeGraph } from '../serialize.ts';
import { validateGraph } from '../validate.ts';
import { DEFAULT_TEMPLATE_ID, TEMPLATES, findTemplate } from './index.ts';

/** Every template file in this folder, by id (its file name). */
const RAW: Record<string, unknown> = {
  ...Object.fromEntries(Object.entries(import.meta.glob('./*.json', { eager: true, import: 'default' })).map(([file, json]) => [file.slice(2, -'.json'.length), json])),
  // A template with a folder of its own (its .mcp.json and data/).
  'files-agent': (await import('../../../examples/files-agent/graph.json')).default,
};

describe('built-in templates', () => {
  it('lists every template file once, with the default among them', () => {
    expect(TEMPLATES.map((template) => template.id).sort()).toEqual(Object.keys(RAW).sort());
    expect(findTemplate(DEFAULT_TEMPLATE_ID)?.graph().name).toBe('SecurityClaw triage');
    expect(findTemplate('graph-engineer')?.graph().name).toBe('Graph Engineer');
    expect(findTemplate('no-such-template')).toBeUndefined();
  });

  for (const template of TEMPLATES) {
    describe(template.id, () => {
      it('parses from its file', () => {
        const parsed = parseGraph(RAW[template.id]);
        expect(parsed.ok ? [] : parsed.problems).toEqual([]);
        expect(parsed.ok && parsed.value).toEqual(template.graph());
      });

      it('serialises and parses back to the same document', () => {
        const graph = template.graph();
        const text = serializeGraph(graph);
        expect(text.endsWith('}\n')).toBe(true);
        const again = parseGraph(text);
        if (!again.ok) throw new Error(JSON.stringify(again.problems));
        expect(again.value).toEqual(graph);
        expect(serializeGraph(again.value)).toBe(text);
      });

      it('gives a fresh document each time, so edits never leak into the template', () => {
        const pristine = serializeGraph(template.graph());
        const edited = template.graph();
        edited.name = 'changed';
        edited.nodes.push(edited.nodes[0]);
        edited.skills.added = { type: 'mock', access: 'read', script: [{ outcome: 'ok' }] };
        expect(serializeGraph(template.graph())).toBe(pristine);
      });
    });
  }

  it('every template but the blank one validates without a single error', () => {
    for (const template of TEMPLATES.filter((candidate) => candidate.id !== 'blank'))
      expect(validateGraph(template.graph()).filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(validateGraph(findTemplate('securityclaw')!.graph())).toEqual([]);
    // Its write tool is denied in read-only mode on purpose (the denied path), and an approve node can grant it.
    expect(validateGraph(findTemplate('graph-engineer')!.graph()).map((problem) => [problem.code, problem.severity])).toEqual([['permission_conflict', 'warning']]);
    // Its write tool declares the access its annotations give it, so the denial is foreseen, and Approve can grant it.
    expect(validateGraph(findTemplate('files-agent')!.graph()).map((problem) => [problem.code, problem.severity, problem.nodeId])).toEqual([['permission_conflict', 'warning', 'think'], ['permission_conflict', 'warning', 'write']]);
  });

  it('the blank graph, copied rather than parsed, is its JSON as the parser reads it', () => {
    const parsed = parseGraph(RAW.blank);
    expect(parsed.ok && parsed.value).toEqual(findTemplate('blank')!.graph());
  });

  it('the blank template has only one problem: no entry yet', () => {
    expect(validateGraph(findTemplate('blank')!.graph()).map((problem) => problem.code)).toEqual(['no_entry']);
  });

  it('SecurityClaw keeps the seed loop: decide → execute → evaluate, recover back to decide, a person on the refused path, a forced stop', () => {
    const graph = findTemplate('securityclaw')!.graph();
    expect(graph.entry).toBe('decide');
    expect(graph.nodes.map((node) => `${node.id}:${node.kind}`)).toEqual([
      'decide:reason', 'execute:act', 'evaluate:verify', 'recover:recover', 'answer:respond', 'halt:stop', 'confirm:approve', 'final:respond',
    ]);
    expect(graph.edges.map((edge) => `${edge.source}→${edge.target}`)).toEqual([
      'decide→execute', 'execute→evaluate', 'evaluate→answer', 'evaluate→recover', 'evaluate→decide', 'recover→decide', 'recover→halt',
      'recover→confirm', 'confirm→decide', 'confirm→halt', 'evaluate→recover',
    ]);
    const execute = graph.nodes.find((node) => node.id === 'execute');
    expect(execute?.kind === 'act' && execute.config.retry).toEqual({ maxAttempts: 3, retryOn: ['timeout', 'parse_error'] });
    // Seed 000's recover node and seed 001's: each failure its own path.
    const recover = graph.nodes.find((node) => node.id === 'recover');
    expect(recover?.kind === 'recover' && recover.config.rules.map((rule) => `${rule.reason} → ${rule.action}${rule.skill ? ` ${rule.skill}` : ''}`)).toEqual([
      'empty_result → expand_search_scope query_alternative_source', 'timeout → fallback_tool fallback_lookup', 'parse_error → fallback_tool fallback_lookup',
      'coverage_low → broaden_evidence query_alternative_source', 'execution_error → fallback_tool fallback_lookup', 'permission_denied → request_human_confirmation',
    ]);
    // The final response after a forced stop is its own node, apart from the answer (Format response).
    expect(graph.finally).toBe('final');
  });

  it('Graph Engineer runs every node through the inner loop, routes COLLECT\'s errors and takes VERIFY\'s verdict from a tool', () => {
    const graph = findTemplate('graph-engineer')!.graph();
    const config = (id: string) => graph.nodes.find((node) => node.id === id)?.config as Record<string, unknown>;
    for (const id of ['gather', 'think', 'run', 'check']) expect(config(id).loop, id).toBeDefined();
    expect(config('check').verdictFrom).toBe('tool');
    expect(graph.edges.filter((edge) => edge.source === 'gather').map((edge) => [edge.target, edge.when])).toEqual([
      ['think', 'otherwise'], ['halt', { any: [{ outcome: 'error' }, { outcome: 'max_iter' }] }],
    ]);
  });
});
