import { describeProblems, loadTemplates } from '../graph/index.ts';
import { useApp } from '../store/index.ts';
import { openAsNewGraph, restoreLastGraph } from '../persistence/persistence.ts';

type AddressHistory = Pick<History, 'replaceState' | 'state'>;

/**
 * The address without what opened a graph, so a reload shows what the person is editing now. The
 * rest of the fragment stays: under `loopscope open` it holds the token a reload needs.
 */
const withoutOpener = (url: URL) => {
  const next = new URL(url);
  next.searchParams.delete('template');
  const fragment = new URLSearchParams(next.hash.slice(1));
  fragment.delete('graph');
  next.hash = fragment.toString();
  return `${next.pathname}${next.search}${next.hash}`;
};

/**
 * A share link (`#graph=…`) opens as a new graph of the library, and leaves the address. Returns
 * what went wrong, in words, when the link cannot be read: then nothing is changed.
 */
export const openLinkedGraph = async (url: URL, history: AddressHistory): Promise<{ opened: boolean; problem: string | null }> => {
  // An address with no fragment (most) carries no link: the link code loads only for one that may.
  const link = url.hash ? await (await import('../editor/shareLink.ts')).decodeShareFragment(url.hash) : null;
  if (link === null) return { opened: false, problem: null };
  if (!link.ok) return { opened: false, problem: `Could not open the share link: ${describeProblems(link.problems)}. Nothing was changed.` };
  openAsNewGraph(link.value);
  history.replaceState(history.state, '', withoutOpener(url));
  return { opened: true, problem: null };
};

/**
 * The first screen: a share link or `?template=ID` opens as a new graph of the library; otherwise
 * the graph this tab was editing comes back. A link that cannot be read changes nothing and says why.
 */
export const openInitialGraph = async (url: URL, history: AddressHistory = window.history) => {
  const link = await openLinkedGraph(url, history);
  if (link.opened) return;
  let problem = link.problem;
  const templateId = url.searchParams.get('template');
  if (problem === null && templateId !== null) {
    const template = (await loadTemplates()).findTemplate(templateId);
    if (template) {
      openAsNewGraph(template.graph());
      history.replaceState(history.state, '', withoutOpener(url));
      return;
    }
    problem = `There is no built-in template "${templateId}". Nothing was changed.`;
  }
  await restoreLastGraph();
  if (problem) useApp.setState({ importError: problem });
};
