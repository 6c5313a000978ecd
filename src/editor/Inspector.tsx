import { nodeById } from '../graph/index.ts';
import { useApp } from '../store/index.ts';
import { lazy, Suspense, useDeferredValue, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { OpenPartContext } from './inspector/openPart.ts';
import { GraphInspector } from './inspector/GraphInspector.tsx';
import { onDemand } from '../ui/onDemand.ts';

// The first screen has nothing selected: a node's and an edge's forms load after it (loadSelectionForms)
// or when one first is. Not React's lazy: a lazy form suspended on its first render even with its code
// loaded, and the press that selects a node (and starts dragging it) paid for the render thrown away.
const nodeForm = onDemand(() => import('./inspector/NodeInspector.tsx'));
const edgeForm = onDemand(() => import('./inspector/EdgeInspector.tsx'));
const ForeignGraphInspector = lazy(() => import('./inspector/ForeignGraphInspector.tsx').then((module) => ({ default: module.ForeignGraphInspector })));

/**
 * Loads the node's and the edge's forms ahead of the first selection: the press that selects a node
 * usually starts a drag too, and loading and compiling the form then took frames from the drag.
 */
export const loadSelectionForms = () => Promise.all([nodeForm.load(), edgeForm.load()]);

const loading = <p className="field-help">Loading…</p>;

/**
 * The settings of what is selected: one node, one edge, or (nothing selected) the graph itself; for
 * a server's LangGraph graph, what it is (its stand-in document has nothing of its own to set).
 */
export function Inspector() {
  const graph = useApp((state) => state.graph);
  const foreign = useApp((state) => state.foreign);
  // A press that selects a node (and starts dragging it) must not wait for the node's form: the form
  // follows the selection in a render of its own, which React can interrupt.
  const selection = useDeferredValue(useApp((state) => state.selection));
  const node = selection.nodes.length === 1 ? nodeById(graph, selection.nodes[0]) : undefined;
  const edge = !node && selection.edges.length === 1 ? graph.edges.find((candidate) => candidate.id === selection.edges[0]) : undefined;
  const many = selection.nodes.length + selection.edges.length > 1;
  const nodeModule = nodeForm.useModule(!!node);
  const edgeModule = edgeForm.useModule(!!edge);
  // A new selection opens at its heading, which says what is being edited: not at the last one's
  // scroll. One opened by a link of the form before opens at the part the link names.
  const section = useRef<HTMLElement>(null);
  const [asked, setAsked] = useState<string | null>(null);
  const select = useApp((state) => state.select);
  const openPart = useMemo(() => ({ asked, open: (to: Parameters<typeof select>[0], part: string) => {
    setAsked(part);
    select(to);
  } }), [asked, select]);
  const shownKey = foreign ? 'foreign' : node ? `node:${node.id}` : edge ? `edge:${edge.id}` : many ? 'many' : 'graph';
  useLayoutEffect(() => {
    const scroller = section.current;
    if (!scroller) return;
    const part = asked === null ? null : [...scroller.querySelectorAll<HTMLElement>('[data-part]')].find((element) => element.dataset.part === asked);
    scroller.scrollTop = part ? part.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop - 8 : 0;
    // The link pressed is gone with its form: the keyboard goes on from the part's first control.
    part?.querySelector<HTMLElement>('summary, button, input, select, textarea')?.focus({ preventScroll: true });
    if (part) setAsked(null);
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- only a new selection moves the scroll; the part asked is read as it is then
  }, [shownKey]);

  return (
    <section ref={section} className="inspector" aria-label="Inspector">
      <h2>Inspector</h2>
      <OpenPartContext value={openPart}>
      <Suspense fallback={loading}>
      {foreign ? (
        <ForeignGraphInspector graph={foreign} name={graph.name} />
      ) : node ? (
        // Keyed by id: a half-typed draft of one node must not carry over to another.
        nodeModule ? <nodeModule.NodeInspector key={node.id} node={node} /> : loading
      ) : edge ? (
        edgeModule ? <edgeModule.EdgeInspector key={edge.id} edge={edge} /> : loading
      ) : many ? (
        <p className="field-help">
          {selection.nodes.length} nodes and {selection.edges.length} edges selected. Select one to edit it.
        </p>
      ) : (
        <GraphInspector />
      )}
      </Suspense>
      </OpenPartContext>
    </section>
  );
}
