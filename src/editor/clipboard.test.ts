import { describe, expect, it } from 'vitest';
import { serializeGraph } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { copyNodes, pasteNodes } from './clipboard.ts';
import { classifyClipboardText } from './pasteText.ts';

const securityclaw = () => findTemplate('securityclaw')!.graph();

describe('copy and paste of nodes', () => {
  it('copies nodes with the edges among them only', () => {
    const clip = copyNodes(securityclaw(), ['evaluate', 'recover'])!;
    expect(clip.nodes.map((node) => node.id)).toEqual(['evaluate', 'recover']);
    expect(clip.edges.map((edge) => edge.id)).toEqual(['e4', 'e11']);
    expect(copyNodes(securityclaw(), [])).toBeNull();
  });

  it('pastes fresh ids, offset, with the inner edge rewired; repeated pastes shift further', () => {
    const graph = securityclaw();
    const clip = copyNodes(graph, ['evaluate', 'recover'])!;
    const once = pasteNodes(graph, clip, 1);
    expect(once.ids).toEqual(['evaluate_2', 'recover_2']);
    const copy = once.graph.nodes.find((node) => node.id === 'evaluate_2')!;
    expect(copy.position).toEqual({ x: graph.nodes[2].position.x + 40, y: graph.nodes[2].position.y + 40 });
    const newEdges = once.graph.edges.slice(graph.edges.length);
    expect(newEdges).toEqual([graph.edges[3], graph.edges[10]].map((edge) => expect.objectContaining({ source: 'evaluate_2', target: 'recover_2', when: edge.when })));
    const twice = pasteNodes(once.graph, clip, 2);
    expect(twice.ids).toEqual(['evaluate_3', 'recover_3']);
    expect(twice.graph.nodes.find((node) => node.id === 'evaluate_3')!.position.x).toBe(graph.nodes[2].position.x + 80);
  });

  it('tells copied nodes, a graph document and other text apart', () => {
    const clip = copyNodes(securityclaw(), ['decide'])!;
    expect(classifyClipboardText(JSON.stringify(clip))).toEqual({ type: 'nodes', clip });
    const graphText = serializeGraph(securityclaw());
    expect(classifyClipboardText(graphText)).toEqual({ type: 'graph', text: graphText });
    expect(classifyClipboardText('hello')).toEqual({ type: 'other' });
    expect(classifyClipboardText('{"format":"loopscope/nodes","nodes":[{"id":1,"kind":"stop"}],"edges":[]}')).toMatchObject({ type: 'refused', problems: [{ path: 'nodes[0].id' }] });
  });

  it('pastes no copied nodes that carry a key reaching a prototype, or that nest too deep', () => {
    const clip = JSON.parse(JSON.stringify(copyNodes(securityclaw(), ['execute'])!));
    const poisoned = JSON.stringify(clip).replace('"config":{', '"config":{"args":{"__proto__":{"polluted":true}},');
    expect(poisoned).toContain('__proto__');
    expect(classifyClipboardText(poisoned)).toEqual({ type: 'refused', problems: [{ path: 'nodes[0].config.args.__proto__', message: 'the key "__proto__" is not allowed anywhere in a file' }] });
    clip.nodes[0].config.args = { deep: JSON.parse(`${'['.repeat(100)}${']'.repeat(100)}`) };
    expect(classifyClipboardText(JSON.stringify(clip))).toMatchObject({ type: 'refused', problems: [{ message: 'nested deeper than 64 levels' }] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
