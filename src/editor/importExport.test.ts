import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LIMITS, serializeGraph } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { exportFileName, slugOf } from './download.ts';
import { toMermaid } from './mermaid.ts';
import { decodeShareFragment, encodeShareFragment } from './shareLink.ts';

const securityclaw = () => findTemplate('securityclaw')!.graph();

describe('toMermaid', () => {
  it('writes a left-to-right flowchart with conditions in words and loops dotted', () => {
    const text = toMermaid(securityclaw());
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('flowchart LR');
    expect(lines).toContain('  decide --> execute');
    expect(lines).toContain('  evaluate -->|"plan_exhausted = true"| recover');
    expect(lines).toContain('  evaluate -.->|"otherwise"| decide');
    expect(lines).toContain('  recover -.->|"outcome: recovered"| decide');
    expect(lines).toContain('  answer(["Format response (respond)"])');
    expect(lines).toContain('  style decide stroke-width:3px');
  });

  it('renames ids Mermaid reserves and escapes quotes in labels', () => {
    const graph = securityclaw();
    graph.nodes[5] = { ...graph.nodes[5], id: 'end', label: 'say "bye"' } as typeof graph.nodes[5];
    graph.edges = graph.edges.map((edge) => (edge.target === 'halt' ? { ...edge, target: 'end' } : edge));
    const text = toMermaid(graph);
    expect(text).toContain('  n5(["say #quot;bye#quot; (stop)"])');
    expect(text).toContain('recover -->|"otherwise"| n5');
    expect(text).not.toMatch(/\bend\b(?!")/);
  });
});

describe('toMermaid with hostile text', () => {
  it('keeps labels and unknown edge ends from starting statements of their own', () => {
    const graph = securityclaw();
    graph.nodes[0] = { ...graph.nodes[0], label: 'x"]\nclick decide "javascript:alert(1)"\n%%' };
    // Built in code, past the parser that refuses such a target.
    graph.edges.push({ id: 'evil', source: 'decide', target: 'x\nclick decide call alert()' as string });
    const text = toMermaid(graph);
    const lines = text.trim().split('\n');
    expect(lines.filter((line) => /^\s*click\b/.test(line))).toEqual([]);
    expect(lines).toContain('  missing0["x click decide call alert() (no such node)"]');
    expect(lines).toContain('  decide --> missing0');
    expect(lines.find((line) => line.startsWith('  decide['))).toBe('  decide["x#quot;] click decide #quot;javascript:alert(1)#quot; %% (reason)"]');
  });
});

describe('share links', () => {
  it('round-trips a graph through the fragment', async () => {
    const graph = securityclaw();
    const fragment = await encodeShareFragment(serializeGraph(graph));
    expect(fragment).toMatch(/^graph=[\w-]+$/);
    const decoded = await decodeShareFragment(`#${fragment}`);
    expect(decoded).toEqual({ ok: true, value: graph });
  });

  it('is strict: a bad graph names its path, a damaged link says so, no fragment is no graph', async () => {
    const graph = JSON.parse(serializeGraph(securityclaw()));
    graph.nodes[1].config.retry.maxAttempts = 'three';
    const bad = await decodeShareFragment(`#${await encodeShareFragment(JSON.stringify(graph))}`);
    expect(bad?.ok).toBe(false);
    expect(bad && !bad.ok && bad.problems[0].path).toBe('nodes[1].config.retry.maxAttempts');
    const damaged = await decodeShareFragment('#graph=AAAA');
    expect(damaged && !damaged.ok && damaged.problems[0].message).toMatch(/damaged/);
    expect(await decodeShareFragment('#other=1')).toBeNull();
  });

  it('refuses a small link that inflates past what a file may hold, without inflating it all', { timeout: 30_000 }, async () => {
    const bomb = `graph=${deflateRawSync(Buffer.alloc(LIMITS.textChars * 3 + 1, 32)).toString('base64url')}`;
    expect(bomb.length).toBeLessThan(100_000);
    const result = await decodeShareFragment(`#${bomb}`);
    expect(result).toEqual({ ok: false, problems: [{ path: '', message: 'the link inflates to more than a graph may hold; it was not opened' }] });
  });
});

describe('file names', () => {
  it('slugs the graph name', () => {
    expect(exportFileName(securityclaw())).toBe('securityclaw-triage.json');
    expect(slugOf('  Ünïcode & spaces__here ')).toBe('unicode-spaces-here');
    expect(slugOf('!!!')).toBe('graph');
  });
});
