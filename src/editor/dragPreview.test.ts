import { describe, expect, it } from 'vitest';
import { findTemplate } from '../graph/templates/index.ts';
import { previewNodes } from './dragPreview.ts';

describe('previewNodes', () => {
  it('puts the dragged nodes where they are now and keeps every other node object', () => {
    const nodes = findTemplate('securityclaw')!.graph().nodes;
    const shown = previewNodes(nodes, new Map([[nodes[1].id, { x: 5, y: 6 }]]));
    expect(shown[1]).toEqual({ ...nodes[1], position: { x: 5, y: 6 } });
    expect(shown.filter((node, index) => node !== nodes[index])).toHaveLength(1);
    expect(previewNodes(nodes, null)).toBe(nodes);
  });
});
