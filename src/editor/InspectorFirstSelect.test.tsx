// @vitest-environment happy-dom
import { ReactFlowProvider } from '@xyflow/react';
import { describe, expect, it } from 'vitest';
import { findTemplate } from '../graph/templates/index.ts';
import { useApp } from '../store/index.ts';
import { mountForTest, unmountAfterEach } from '../ui/mountForTest.tsx';
import { Inspector, loadSelectionForms } from './Inspector.tsx';

unmountAfterEach();

// Its own file: the forms must not have been drawn before (another test's render would have readied them).
describe('the first selection after the forms are loaded ahead (issue 57, the drag’s pointer-down)', () => {
  it('draws the node’s form in the render that selects it, with no "Loading…" and no render thrown away', async () => {
    await loadSelectionForms();
    const graph = findTemplate('securityclaw')!.graph();
    const node = graph.nodes[0];
    useApp.setState({ graph, selection: { nodes: [node.id], edges: [] } });
    const container = mountForTest(<ReactFlowProvider><Inspector /></ReactFlowProvider>);
    expect(container.textContent).not.toContain('Loading…');
    expect([...container.querySelectorAll('input')].map((input) => input.value)).toContain(node.id);
  });

  it('draws the edge’s form in the render that selects it', async () => {
    await loadSelectionForms();
    const graph = findTemplate('securityclaw')!.graph();
    useApp.setState({ graph, selection: { nodes: [], edges: [graph.edges[0].id] } });
    const container = mountForTest(<ReactFlowProvider><Inspector /></ReactFlowProvider>);
    expect(container.textContent).not.toContain('Loading…');
    expect(container.querySelector('select, input')).not.toBeNull();
  });
});
