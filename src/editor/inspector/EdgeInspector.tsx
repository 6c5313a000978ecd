import { describeWhen, edgesInTryOrder, nodeById, outcomesOf, removeEdges, updateEdge, type GraphEdge, type When } from '../../graph/index.ts';
import { moveEdge } from '../../graph/inspectorOps.ts';
import { knownPaths } from '../../graph/state.ts';
import { useApp } from '../../store/index.ts';
import { ordinal, TextField } from './fields.tsx';
import { usePathsListId, WhenEditor } from './WhenEditor.tsx';


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
