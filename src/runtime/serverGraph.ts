/**
 * A LangGraph server's description of a graph (`GET /assistants/{id}/graph?xray=true`, LangGraph's
 * drawable graph as JSON) read as what Loopscope draws for a graph it did not make: LangGraph
 * nodes, `__start__` and `__end__`, plain and conditional edges, and subgraphs as groups of their
 * nodes (xray names a subgraph's node `parent:child`; `:` is reserved in LangGraph node names, so
 * it only ever comes from a subgraph). The description is another program's answer: anything
 * malformed is left out, ids are only ever keys of Maps, and the size is bounded.
 */

export const START_NODE = '__start__';
export const END_NODE = '__end__';
/** A subgraph's nodes are named by xray with their parent node's name and this separator. */
const SUBGRAPH_SEPARATOR = ':';

/** More nodes or edges than this are not drawn: the page says so instead of freezing. */
export const DRAWING_LIMITS = { nodes: 500, edges: 2000 } as const;

export interface DrawnNode {
  /** The server's id: the node's name, `parent:child` inside a subgraph. */
  id: string;
  /** What the node is called in its own graph (the part after its groups). */
  name: string;
  /** The innermost subgraph it belongs to (a group's id), or null at the top. */
  group: string | null;
  type: 'start' | 'end' | 'node';
  /** The tools of a ToolNode, as the server lists them. */
  tools: string[];
  /** `interruptBefore` / `interruptAfter` compiled into the graph (`before`, `after`, `before,after`). */
  interrupt: string | null;
}

export interface DrawnEdge {
  /** `source→target` (`#2`… when the same pair has another edge). */
  id: string;
  source: string;
  target: string;
  conditional: boolean;
  /** The branch's name for this target when the server gives one (a path map's key), else null. */
  label: string | null;
}

export interface DrawnGroup {
  /** The parent graph's node that runs the subgraph (`research`, `research:inner` when nested). */
  id: string;
  name: string;
  group: string | null;
}

export interface ServerDrawing {
  nodes: DrawnNode[];
  edges: DrawnEdge[];
  groups: DrawnGroup[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const idOf = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : null);

/** The groups a node id lies in, outermost first: `a:b:c` → `a`, `a:b`. */
const groupsOf = (id: string): string[] => {
  const parts = id.split(SUBGRAPH_SEPARATOR);
  return parts.slice(0, -1).map((_, index) => parts.slice(0, index + 1).join(SUBGRAPH_SEPARATOR));
};

/** The server's description as a drawing, or why it cannot be drawn. */
export const drawingOf = (description: unknown): { ok: true; drawing: ServerDrawing } | { ok: false; error: string } => {
  if (!isRecord(description) || !Array.isArray(description.nodes)) return { ok: false, error: 'the server described the graph without a list of nodes' };
  const rawEdges = Array.isArray(description.edges) ? description.edges : [];
  if (description.nodes.length > DRAWING_LIMITS.nodes || rawEdges.length > DRAWING_LIMITS.edges)
    return { ok: false, error: `the graph has ${description.nodes.length} nodes and ${rawEdges.length} edges; Loopscope draws at most ${DRAWING_LIMITS.nodes} and ${DRAWING_LIMITS.edges}` };
  const nodes = new Map<string, DrawnNode>();
  for (const raw of description.nodes) {
    const id = isRecord(raw) ? idOf(raw.id) : null;
    if (id === null || nodes.has(id)) continue;
    const metadata = isRecord((raw as Record<string, unknown>).metadata) ? ((raw as Record<string, unknown>).metadata as Record<string, unknown>) : {};
    const groups = groupsOf(id);
    const name = id.split(SUBGRAPH_SEPARATOR).at(-1) as string;
    nodes.set(id, {
      id, name, group: groups.at(-1) ?? null,
      type: id === START_NODE ? 'start' : id === END_NODE ? 'end' : 'node',
      tools: Array.isArray(metadata.__tools) ? metadata.__tools.filter((tool): tool is string => typeof tool === 'string').slice(0, 50) : [],
      interrupt: typeof metadata.__interrupt === 'string' ? metadata.__interrupt : null,
    });
  }
  const groups = new Map<string, DrawnGroup>();
  for (const node of nodes.values())
    for (const id of groupsOf(node.id)) if (!groups.has(id) && !nodes.has(id)) groups.set(id, { id, name: id.split(SUBGRAPH_SEPARATOR).at(-1) as string, group: groupsOf(id).at(-1) ?? null });
  const edges: DrawnEdge[] = [];
  const ids = new Set<string>();
  for (const raw of rawEdges) {
    if (!isRecord(raw)) continue;
    const source = idOf(raw.source);
    const target = idOf(raw.target);
    if (source === null || target === null || !nodes.has(source) || !nodes.has(target)) continue;
    const base = `${source}→${target}`;
    let id = base;
    for (let n = 2; ids.has(id); n += 1) id = `${base}#${n}`;
    ids.add(id);
    edges.push({ id, source, target, conditional: raw.conditional === true, label: typeof raw.data === 'string' && raw.data.length > 0 ? raw.data.slice(0, 80) : null });
  }
  return { ok: true, drawing: { nodes: [...nodes.values()], edges, groups: [...groups.values()] } };
};

/** The drawing's id of a node that ran: its name, inside the groups of the subgraph namespace it ran in (`research:<task>` → `research:`). */
export const drawnIdOf = (name: string, namespace = ''): string => {
  const parents = namespace ? namespace.split('|').map((part) => part.split(SUBGRAPH_SEPARATOR)[0]) : [];
  return [...parents, name].join(SUBGRAPH_SEPARATOR);
};

/**
 * The edges that leave what ran as `id`: a node's own, or for a subgraph drawn as a group, the
 * edges from its nodes to outside it (where the parent graph goes on after it).
 */
export const edgesLeaving = (drawing: ServerDrawing, id: string): DrawnEdge[] => {
  const own = drawing.edges.filter((edge) => edge.source === id);
  if (own.length > 0 || !drawing.groups.some((group) => group.id === id)) return own;
  const inside = `${id}${SUBGRAPH_SEPARATOR}`;
  return drawing.edges.filter((edge) => edge.source.startsWith(inside) && !edge.target.startsWith(inside));
};
