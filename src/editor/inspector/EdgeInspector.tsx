import { describeWhen, edgesInTryOrder, kindDefinition, nodeById, outcomesOf, removeEdges, updateEdge, type GraphEdge, type GraphFile, type When } from '../../graph/index.ts';
import { moveEdge, rewireEdge } from '../../graph/inspectorOps.ts';
import { knownPaths } from '../../graph/state.ts';
import { useApp } from '../../store/index.ts';
import { ordinal, TextField } from './fields.tsx';
import { usePathsListId, WhenEditor } from './WhenEditor.tsx';
import { GENERAL_HANDLE, sourceHandleOf } from '../flowAdapter.ts';
import { nodeChoiceName } from '../nodeChoice.ts';

/** A "From" choice: the node an edge leaves and the row it leaves on (an outcome, or the general row). */
const fromValue = (source: string, handle: string) => JSON.stringify([source, handle]);

/**
 * The ends an edge may be moved to from the keyboard, as a drag of either end may move them: from
 * any outcome row (or the general row) of a node that does not end the run, to any node but the one
 * it leaves. The edge's own ends are always listed, so the selects show where it is now.
 */
const endChoices = (graph: GraphFile, edge: GraphEdge) => {
  const from = graph.nodes
    .filter((node) => node.id !== edge.target && !kindDefinition(node.kind).terminal)
    .flatMap((node) =>
      [...outcomesOf(node), GENERAL_HANDLE].map((handle) => ({
        value: fromValue(node.id, handle),
        text: `${nodeChoiceName(node)} · ${handle === GENERAL_HANDLE ? 'condition or always' : `outcome ${handle}`}`,
      })),
    );
  const current = fromValue(edge.source, sourceHandleOf(edge, nodeById(graph, edge.source)) ?? GENERAL_HANDLE);
  if (!from.some(({ value }) => value === current)) from.unshift({ value: current, text: edge.source });
  const to = graph.nodes.filter((node) => node.id !== edge.source || node.id === edge.target).map((node) => ({ value: node.id, text: nodeChoiceName(node) }));
  if (!to.some(({ value }) => value === edge.target)) to.unshift({ value: edge.target, text: edge.target });
  return { from, current, to };
};

export function EdgeInspector({ edge }: { edge: GraphEdge }) {
  const graph = useApp((state) => state.graph);
  const edit = useApp((state) => state.edit);
  const select = useApp((state) => state.select);
  const pathsListId = usePathsListId();
  const source = nodeById(graph, edge.source);
  const paths = knownPaths(graph);
  const tried = edgesInTryOrder(graph, edge.source);
  const position = tried.findIndex((candidate) => candidate.id === edge.id) + 1;
  const siblings = graph.edges.filter((candidate) => candidate.source === edge.source);
  const fileIndex = siblings.findIndex((candidate) => candidate.id === edge.id);

  const ends = endChoices(graph, edge);
  const rewire = (source: string, handle: string, target: string) =>
    edit((current) => rewireEdge(current, edge.id, source, target, handle === GENERAL_HANDLE ? null : handle));

  const setEdge = (key: string, update: (edge: GraphEdge) => GraphEdge) => edit((current) => updateEdge(current, edge.id, update), `edge:${edge.id}:${key}`);
  const setWhen = (when: When) => {
    setEdge('when', (current) => {
      const next: GraphEdge = { ...current, when };
      // "always" is what an edge without a condition means; the file keeps it short.
      if (when === 'always') delete next.when;
      return next;
    });
    return null;
  };

  return (
    <div className="inspector-body">
      <p className="inspector-kind">
        Edge <code>{edge.id}</code>: <strong>{edge.source}</strong> → <strong>{edge.target}</strong>
      </p>
      <p className="field-help">Fires {describeWhen(edge.when)}.</p>
      <div className="field edge-ends" role="group" aria-label="Ends">
        <label className="stack">
          From
          <select
            value={ends.current}
            onChange={(event) => {
              const [source, handle] = JSON.parse(event.target.value) as [string, string];
              rewire(source, handle, edge.target);
            }}
          >
            {ends.from.map(({ value, text }) => (
              <option key={value} value={value}>{text}</option>
            ))}
          </select>
        </label>
        <label className="stack">
          To
          <select
            value={edge.target}
            onChange={(event) => {
              const [source, handle] = JSON.parse(ends.current) as [string, string];
              rewire(source, handle, event.target.value);
            }}
          >
            {ends.to.map(({ value, text }) => (
              <option key={value} value={value}>{text}</option>
            ))}
          </select>
        </label>
      </div>
      <div className="field edge-order" role="group" aria-label="Order">
        <span>
          Tried {ordinal(position)} of {tried.length}
        </span>
        <button type="button" disabled={fileIndex <= 0} onClick={() => edit((current) => moveEdge(current, edge.id, -1))}>
          Try earlier
        </button>
        <button type="button" disabled={fileIndex >= siblings.length - 1} onClick={() => edit((current) => moveEdge(current, edge.id, 1))}>
          Try later
        </button>
        {edge.when === 'otherwise' ? <p className="field-help">An otherwise edge is always tried last.</p> : null}
      </div>
      <datalist id={pathsListId}>
        {paths.map((path) => (
          <option key={path} value={path} />
        ))}
      </datalist>
      <section className="inspector-section" aria-label="Condition">
        <h3>Condition</h3>
        <WhenEditor when={edge.when} context={{ outcomes: source ? outcomesOf(source) : [], pathsListId, defaultPath: paths.find((path) => path.includes('.')) ?? 'round' }} apply={setWhen} />
      </section>
      <TextField
        label="Label"
        value={edge.label}
        apply={(label) => {
          setEdge('label', (current) => {
            const next: GraphEdge = { ...current, label };
            if (label === undefined) delete next.label;
            return next;
          });
          return null;
        }}
        help="Shown on the canvas instead of the condition."
      />
      <button
        type="button"
        onClick={() => {
          edit((current) => removeEdges(current, [edge.id]));
          select({ edges: [] });
        }}
      >
        Delete edge
      </button>
    </div>
  );
}
