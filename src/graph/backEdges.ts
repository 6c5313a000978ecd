/**
 * Edges that close a loop: back edges of a depth-first search from `starts` (then from any node it
 * did not reach), tried in list order so the answer is stable. For any graph of ids: the editor's
 * Loopscope graphs and the LangGraph graphs a server describes.
 */
export const backEdges = (nodes: readonly { id: string }[], edges: readonly { id: string; source: string; target: string }[], starts: readonly string[]): Set<string> => {
  const outgoing = new Map<string, { id: string; target: string }[]>();
  for (const edge of edges) {
    const list = outgoing.get(edge.source);
    if (list) list.push(edge);
    else outgoing.set(edge.source, [edge]);
  }
  const state = new Map<string, 'open' | 'done'>();
  const back = new Set<string>();
  const visit = (start: string) => {
    // Iterative, so that a long chain of nodes does not overflow the call stack.
    const stack: { id: string; next: number }[] = [{ id: start, next: 0 }];
    state.set(start, 'open');
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      const from = outgoing.get(frame.id) ?? [];
      if (frame.next >= from.length) {
        state.set(frame.id, 'done');
        stack.pop();
        continue;
      }
      const edge = from[frame.next++];
      const seen = state.get(edge.target);
      if (seen === 'open') back.add(edge.id);
      else if (seen === undefined) {
        state.set(edge.target, 'open');
        stack.push({ id: edge.target, next: 0 });
      }
    }
  };
  const ids = new Set(nodes.map((node) => node.id));
  for (const start of starts) if (ids.has(start) && !state.has(start)) visit(start);
  for (const node of nodes) if (!state.has(node.id)) visit(node.id);
  return back;
};
