import { findTemplate, validateGraph } from '../graph/index.ts';
import { openSharedGraph } from '../editor/importExport.ts';
import { useApp } from '../store/index.ts';

/** `?template=ID` opens a built-in template; the first screen is not an undoable edit. */
export const openInitialGraph = (url: URL) => {
  // A share link (`#graph=…`) wins over a template; it is read asynchronously.
  if (url.hash.includes('graph=')) {
    void openSharedGraph(url);
    return;
  }
  const id = url.searchParams.get('template');
  const template = id ? findTemplate(id) : undefined;
  if (!template) return;
  const graph = template.graph();
  useApp.setState({ graph, problems: validateGraph(graph), past: [], future: [] });
};
