import { findTemplate, validateGraph } from '../graph/index.ts';
import { useApp } from '../store/index.ts';

/** `?template=ID` opens a built-in template; the first screen is not an undoable edit. */
export const openInitialGraph = (url: URL) => {
  const id = url.searchParams.get('template');
  const template = id ? findTemplate(id) : undefined;
  if (!template) return;
  const graph = template.graph();
  useApp.setState({ graph, problems: validateGraph(graph), past: [], future: [] });
};
