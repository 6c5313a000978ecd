import { blankGraph, describeProblems, loadTemplates, type GraphFile, type ParseResult, type Problem } from '../graph/index.ts';
import { afterDrawing } from './afterDrawing.ts';
import { checkedProblems, checksReady, loadChecks, problemsAfter } from './problems.ts';
import type { SliceCreator } from './types.ts';

const HISTORY_LIMIT = 200;

export interface Selection {
  nodes: string[];
  edges: string[];
}

/**
 * A graph on a LangGraph server that Loopscope did not make. It stands in the library as an empty
 * document whose id names the server and the assistant (foreignDocumentId): it is not a Loopscope
 * graph, so it is not checked and not edited here.
 */
export interface ForeignGraph {
  origin: string;
  assistantId: string;
}

/** Why the editing controls are off while a server graph is open: said by each of them (palette, toolbar, shortcuts). */
export const FOREIGN_EDIT_NOTE = 'A LangGraph graph is edited in its code; open a Loopscope graph from Graphs to edit one here';

const FOREIGN_ID = 'langgraph ';
/** The library id of a server graph's stand-in: one per server and assistant. */
export const foreignDocumentId = ({ origin, assistantId }: ForeignGraph) => `${FOREIGN_ID}${origin} ${assistantId}`;
/** The server graph a library id stands for, if it is one (an origin has no space in it). */
export const foreignOf = (documentId: string): ForeignGraph | null => {
  if (!documentId.startsWith(FOREIGN_ID)) return null;
  const rest = documentId.slice(FOREIGN_ID.length);
  const space = rest.indexOf(' ');
  return space > 0 && space < rest.length - 1 ? { origin: rest.slice(0, space), assistantId: rest.slice(space + 1) } : null;
};

const NO_PROBLEMS: Problem[] = [];

/**
 * The selection, less what `graph` no longer has. The canvas tells of selection changes only for
 * what it draws: an id left behind by an undo or an edit could never be deselected, and with it
 * every click selected two things (issue 53).
 */
export const selectionIn = (graph: GraphFile, selection: Selection): Selection => {
  if (selection.nodes.length === 0 && selection.edges.length === 0) return selection;
  const [nodeIds, edgeIds] = [new Set(graph.nodes.map((node) => node.id)), new Set(graph.edges.map((edge) => edge.id))];
  const nodes = selection.nodes.filter((id) => nodeIds.has(id));
  const edges = selection.edges.filter((id) => edgeIds.has(id));
  return nodes.length === selection.nodes.length && edges.length === selection.edges.length ? selection : { nodes, edges };
};

export interface GraphSlice {
  graph: GraphFile;
  /**
   * Problems of the current graph, recomputed on every change that can change them (not on a move).
   * Null for a graph just opened until it has been drawn: checking a big graph held its first drawing.
   */
  problems: Problem[] | null;
  selection: Selection;
  past: GraphFile[];
  future: GraphFile[];
  /** Consecutive edits with the same key (a drag, typing in one field) undo as one. */
  lastEditKey: string | null;
  /** The last import's failure, shown as an alert; the graph stays as it was. */
  importError: string | null;
  /** Grows each time another document is opened, so the canvas can fit its view to it. */
  documentVersion: number;
  /** The open graph's id in the graph library: its autosave is kept under this id alone. */
  documentId: string;
  /** The server graph the open document stands for (read from its id), or null for a Loopscope graph. */
  foreign: ForeignGraph | null;
  /** Replaces the graph by an edit; undoable. */
  edit: (update: (graph: GraphFile) => GraphFile, key?: string) => void;
  /**
   * Opens a graph as a new graph of the library (template, import, link, new graph): the open one
   * stays saved under its own id, so nothing is dropped and there is nothing to ask.
   */
  load: (graph: GraphFile, options?: { layout?: boolean }) => void;
  /** Opens a graph kept in the library under `id`, with a history of its own; its problems follow its first drawing. */
  openDocument: (graph: GraphFile, id: string) => void;
  /** Checks the open graph if it has not been yet (`problems` null). */
  checkProblems: () => void;
  /** A document opened with no positions of its own (a server's graph) waits for the editor's Auto layout. */
  layoutAsked: boolean;
  /** Opens what a parse of untrusted text gave (editor/importExport.ts); on failure the graph stays and `importError` names the problem. */
  importParsed: (result: ParseResult<GraphFile>, source?: string) => boolean;
  /** Opens a template as a new graph, named apart from `taken` (the library's names): a second one opened is "… (2)". */
  openTemplate: (id: string, taken?: readonly string[]) => Promise<boolean>;
  select: (selection: Partial<Selection>) => void;
  undo: () => void;
  redo: () => void;
  dismissImportError: () => void;
}

/** `name`, or the first of "name (2)", "name (3)", … that is not `taken`: two graphs of the library are told apart by their names. */
export const nameApart = (name: string, taken: readonly string[]): string => {
  const names = new Set(taken);
  let candidate = name;
  for (let count = 2; names.has(candidate); count += 1) candidate = `${name} (${count})`;
  return candidate;
};

/** The longest a busy page (a run in progress) keeps the check of a graph just opened waiting. */
const CHECK_WAITS_AT_MOST_MS = 500;

/** A fresh id for a graph of the library. */
export const newDocumentId = () => `graph-${crypto.randomUUID()}`;

export const createGraphSlice: SliceCreator<GraphSlice> = (set, get) => {
  // Empty until the first screen opens a graph (the autosave, a link, a template): nothing is built twice.
  const graph = blankGraph();
  /** The check loads after the page's first screen; until it has, problems stay unchecked, and it checks them once in. */
  const checkOnceLoaded = () => {
    if (!checksReady()) void loadChecks().then(get().checkProblems);
  };
  const replace = (next: GraphFile, key: string | null) => {
    const { graph: current, problems, past, lastEditKey, foreign, selection } = get();
    // A server graph is edited in its own code: its stand-in takes no edits.
    if (next === current || foreign) return;
    const coalesce = key !== null && key === lastEditKey;
    set({
      graph: next,
      problems: problemsAfter(current, problems, next),
      selection: selectionIn(next, selection),
      past: coalesce ? past : [...past, current].slice(-HISTORY_LIMIT),
      future: [],
      lastEditKey: key,
    });
    checkOnceLoaded();
  };
  return {
    graph,
    // Checked if the check is in (Node's entries, the tests); the page's first graph asks for it once drawn (openDocument).
    problems: checksReady() ? checkedProblems(graph) : null,
    selection: { nodes: [], edges: [] },
    past: [],
    future: [],
    lastEditKey: null,
    importError: null,
    documentVersion: 0,
    documentId: newDocumentId(),
    foreign: null,
    edit: (update, key) => replace(update(get().graph), key ?? null),
    load: (next, options) => {
      get().openDocument(next, newDocumentId());
      if (options?.layout) set({ layoutAsked: true });
    },
    layoutAsked: false,
    openDocument: (next, id) => {
      const foreign = foreignOf(id);
      set((state) => ({
        graph: next,
        // A server graph's stand-in is not a Loopscope graph: nothing of it to check, and it takes no edits (replace).
        problems: foreign ? NO_PROBLEMS : null,
        past: [],
        future: [],
        lastEditKey: null,
        selection: { nodes: [], edges: [] },
        importError: null,
        documentId: id,
        foreign,
        documentVersion: state.documentVersion + 1,
      }));
      // The check waits for the graph's first drawing and what the page does right after it (an imported trace's timeline).
      afterDrawing(get().checkProblems, CHECK_WAITS_AT_MOST_MS);
    },
    checkProblems: () => {
      const { graph: current, problems } = get();
      if (problems === null) set({ problems: checkedProblems(current) });
      checkOnceLoaded();
    },
    importParsed: (result, source = 'the file') => {
      if (!result.ok) {
        set({ importError: `Could not open ${source}: ${describeProblems(result.problems)}` });
        return false;
      }
      get().load(result.value);
      return true;
    },
    openTemplate: async (id, taken = []) => {
      const template = (await loadTemplates()).findTemplate(id);
      if (!template) return false;
      const graph = template.graph();
      get().load({ ...graph, name: nameApart(graph.name, taken) });
      return true;
    },
    select: (selection) => set((state) => ({ selection: { ...state.selection, ...selection } })),
    undo: () => {
      const { past, graph: current, problems, future, selection } = get();
      const previous = past[past.length - 1];
      if (!previous) return;
      set({ graph: previous, problems: problemsAfter(current, problems, previous), selection: selectionIn(previous, selection), past: past.slice(0, -1), future: [current, ...future], lastEditKey: null });
    },
    redo: () => {
      const { past, graph: current, problems, future, selection } = get();
      const next = future[0];
      if (!next) return;
      set({ graph: next, problems: problemsAfter(current, problems, next), selection: selectionIn(next, selection), past: [...past, current], future: future.slice(1), lastEditKey: null });
    },
    dismissImportError: () => set({ importError: null }),
  };
};
