/**
 * Where a server graph's nodes go: ELK's layered layout at first open (subgraphs as compound nodes,
 * so a group's nodes stay together), kept per server and assistant with the person's own moves, and
 * laid out again only when the server describes other nodes. Sizes are fixed here and drawn to by
 * the nodes' CSS (server.css).
 */
import { backEdges } from '../../graph/backEdges.ts';
import { START_NODE, type DrawnNode, type ServerDrawing } from '../../runtime/serverGraph.ts';

export interface Point {
  x: number;
  y: number;
}

export const NODE_SIZE = { width: 176, height: 52 } as const;
export const END_SIZE = { width: 112, height: 36 } as const;
/** Room around a group's nodes: its title on top. */
export const GROUP_PAD = { top: 34, side: 18, bottom: 18 } as const;

export const sizeOf = (node: Pick<DrawnNode, 'type'>) => (node.type === 'node' ? NODE_SIZE : END_SIZE);

/** What a kept layout was made for: the nodes the server described, in order. */
export const signatureOf = (drawing: ServerDrawing) => drawing.nodes.map((node) => node.id).join('\n');

const storageKey = (origin: string, assistantId: string) => `loopscope.langgraph-layout ${origin} ${assistantId}`;

/** The places kept for this assistant, when they were made for the same nodes. */
export const keptPlaces = (origin: string, assistantId: string, drawing: ServerDrawing): Map<string, Point> | null => {
  try {
    const kept = JSON.parse(localStorage.getItem(storageKey(origin, assistantId)) ?? 'null') as { signature?: unknown; places?: unknown } | null;
    if (!kept || kept.signature !== signatureOf(drawing) || !Array.isArray(kept.places)) return null;
    const places = new Map<string, Point>();
    for (const entry of kept.places) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Number.isFinite(entry[1]?.x) || !Number.isFinite(entry[1]?.y)) return null;
      places.set(entry[0], { x: entry[1].x, y: entry[1].y });
    }
    return drawing.nodes.every((node) => places.has(node.id)) ? places : null;
  } catch {
    return null;
  }
};

/** Keeps the places for this assistant (a full storage only loses them). */
export const keepPlaces = (origin: string, assistantId: string, drawing: ServerDrawing, places: ReadonlyMap<string, Point>) => {
  try {
    localStorage.setItem(storageKey(origin, assistantId), JSON.stringify({ signature: signatureOf(drawing), places: [...places] }));
  } catch {
    // Positions are a convenience: the next open lays the graph out again.
  }
};

interface ElkShape {
  id: string;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  children?: ElkShape[];
  layoutOptions?: Record<string, string>;
}

/**
 * Edges that close a loop (`tools → callModel`), from __start__: left out of ELK's layering, so a
 * loop reads as a line going back under the nodes rather than pushing its target ahead of its source.
 */
export const loopEdges = (drawing: ServerDrawing): Set<string> => backEdges(drawing.nodes, drawing.edges, [START_NODE]);

/** ELK's layered layout, left to right, groups as compound nodes; places are each node's top-left corner. */
export const layOutDrawing = async (drawing: ServerDrawing): Promise<Map<string, Point>> => {
  const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
  // ELK's ids are only these: a server's node names never reach it.
  const elkId = new Map<string, string>();
  drawing.nodes.forEach((node, index) => elkId.set(node.id, `n${index}`));
  drawing.groups.forEach((group, index) => elkId.set(group.id, `g${index}`));
  const shapes = new Map<string, ElkShape>();
  for (const node of drawing.nodes) shapes.set(node.id, { id: elkId.get(node.id) as string, ...sizeOf(node) });
  for (const group of drawing.groups)
    shapes.set(group.id, { id: elkId.get(group.id) as string, children: [], layoutOptions: { 'elk.padding': `[top=${GROUP_PAD.top},left=${GROUP_PAD.side},bottom=${GROUP_PAD.bottom},right=${GROUP_PAD.side}]` } });
  const root: ElkShape[] = [];
  const loops = loopEdges(drawing);
  const childrenOf = (group: string | null) => (group !== null ? shapes.get(group)?.children : undefined) ?? root;
  for (const group of drawing.groups) childrenOf(group.group).push(shapes.get(group.id) as ElkShape);
  for (const node of drawing.nodes) childrenOf(node.group).push(shapes.get(node.id) as ElkShape);
  const laid = (await new ELK().layout(({
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.spacing.nodeNode': '40',
      'elk.layered.spacing.nodeNodeBetweenLayers': '90',
      'elk.padding': '[top=20,left=20,bottom=20,right=20]',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
    },
    children: root,
    edges: drawing.edges
      .filter((edge) => edge.source !== edge.target && !loops.has(edge.id))
      .map((edge, index) => ({ id: `e${index}`, sources: [elkId.get(edge.source) as string], targets: [elkId.get(edge.target) as string] })),
  }) as never)) as unknown as ElkShape;
  const byElkId = new Map([...elkId].map(([id, elk]) => [elk, id]));
  const places = new Map<string, Point>();
  const visit = (shapesLaid: ElkShape[] | undefined, offset: Point) => {
    for (const shape of shapesLaid ?? []) {
      const at = { x: offset.x + (shape.x ?? 0), y: offset.y + (shape.y ?? 0) };
      const id = byElkId.get(shape.id);
      if (id !== undefined && !shape.children) places.set(id, { x: Math.round(at.x), y: Math.round(at.y) });
      visit(shape.children, at);
    }
  };
  visit(laid.children, { x: 0, y: 0 });
  // A node ELK left out (it should not) still gets a place.
  drawing.nodes.forEach((node, index) => places.has(node.id) || places.set(node.id, { x: (index % 4) * 220, y: Math.floor(index / 4) * 120 }));
  return places;
};

/** A group's box: around its nodes (and its inner groups' nodes), with room for its title. */
export const groupBox = (drawing: ServerDrawing, groupId: string, places: ReadonlyMap<string, Point>) => {
  const inside = drawing.nodes.filter((node) => node.id.startsWith(`${groupId}:`));
  const depth = groupId.split(':').length;
  const boxes = inside.map((node) => {
    const place = places.get(node.id) ?? { x: 0, y: 0 };
    return { ...place, ...sizeOf(node) };
  });
  if (boxes.length === 0) return null;
  // Nested groups: each level inside gets its own margin.
  const extra = (node: DrawnNode) => (node.id.split(':').length - 1 - depth) * 12;
  const left = Math.min(...boxes.map((box, index) => box.x - extra(inside[index]))) - GROUP_PAD.side;
  const top = Math.min(...boxes.map((box, index) => box.y - extra(inside[index]))) - GROUP_PAD.top;
  const right = Math.max(...boxes.map((box, index) => box.x + box.width + extra(inside[index]))) + GROUP_PAD.side;
  const bottom = Math.max(...boxes.map((box, index) => box.y + box.height + extra(inside[index]))) + GROUP_PAD.bottom;
  return { x: left, y: top, width: right - left, height: bottom - top };
};
