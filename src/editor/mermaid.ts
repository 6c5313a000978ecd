/** The graph as a Mermaid flowchart, for docs: loaded when the Mermaid dialog first opens. */
import { describeWhen, kindDefinition, type GraphFile, type MermaidShape } from '../graph/index.ts';
import { findBackEdges } from './flowAdapter.ts';

const MERMAID_RESERVED = new Set(['end', 'graph', 'subgraph', 'flowchart', 'style', 'class', 'classdef', 'click', 'linkstyle', 'direction']);

/**
 * Label text Mermaid reads as text only: quotes, pipes and angle brackets as entities, and no
 * line break or control character that could start a statement of its own (`click … javascript:`).
 */
const mermaidText = (text: string) =>
  `"${text
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ')
    .replace(/#/g, '#35;')
    .replace(/"/g, '#quot;')
    .replace(/\|/g, '#124;')
    .replace(/</g, '#lt;')
    .replace(/>/g, '#gt;')
    .replace(/`/g, '#96;')}"`;

/** A flowchart for docs; loop-back edges are dotted, as on the canvas they are dashed. */
const MERMAID_SHAPES: Record<MermaidShape, (label: string) => string> = {
  box: (label) => `[${label}]`,
  stadium: (label) => `([${label}])`,
  rhombus: (label) => `{${label}}`,
};

export const toMermaid = (graph: GraphFile): string => {
  const names = new Map(
    graph.nodes.map((node, index) => [
      node.id,
      /^[A-Za-z_]\w*$/.test(node.id) && !MERMAID_RESERVED.has(node.id.toLowerCase()) ? node.id : `n${index}`,
    ]),
  );
  // An edge to a node that does not exist gets a name of ours and a box saying so: no text of the file becomes a Mermaid id.
  const missing: string[] = [];
  const nameOf = (id: string) => {
    const known = names.get(id);
    if (known) return known;
    const name = `missing${missing.length}`;
    names.set(id, name);
    missing.push(id);
    return name;
  };
  const back = findBackEdges(graph);
  const lines = ['flowchart LR'];
  for (const node of graph.nodes) {
    const label = mermaidText(`${node.label ?? node.id} (${node.kind})`);
    const shape = MERMAID_SHAPES[kindDefinition(node.kind).mermaid](label);
    lines.push(`  ${names.get(node.id)}${shape}`);
  }
  const edgeLines: string[] = [];
  for (const edge of graph.edges) {
    const source = nameOf(edge.source);
    const target = nameOf(edge.target);
    const label = describeWhen(edge.when);
    const arrow = back.has(edge.id) ? '-.->' : '-->';
    edgeLines.push(label === 'always' ? `  ${source} ${arrow} ${target}` : `  ${source} ${arrow}|${mermaidText(label)}| ${target}`);
  }
  missing.forEach((id, index) => lines.push(`  missing${index}[${mermaidText(`${id} (no such node)`)}]`));
  lines.push(...edgeLines);
  if (graph.entry && names.has(graph.entry)) lines.push(`  style ${names.get(graph.entry)} stroke-width:3px`);
  return `${lines.join('\n')}\n`;
};
