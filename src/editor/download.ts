/** Getting a graph out as a file: on the first screen, where a crash offers the graph for download (app/ErrorBoundary.tsx). */
import type { GraphFile } from '../graph/index.ts';

export const slugOf = (name: string): string =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-') || 'graph';

export const exportFileName = (graph: GraphFile) => `${slugOf(graph.name)}.json`;

export const downloadText = (fileName: string, text: string, type = 'application/json') => {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click has started the download; the URL is not needed after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
};
