/**
 * The editor's keyboard shortcuts. Not needed to draw the canvas: the canvas loads them once it has
 * committed (Canvas.tsx), a moment after the first screen.
 */
import { FOREIGN_EDIT_NOTE, useApp } from '../store/index.ts';
import { isTyping } from '../ui/typing.ts';
import { copyNodes, pasteNodes, type NodeClip } from './clipboard.ts';
import { shortcutOf, type EarlyShortcuts } from './shortcutKeys.ts';


/**
 * Undo, redo, copy, paste, duplicate and connect (C, from the one selected node) on the whole
 * window, except while typing; the shortcuts `pressedBefore` this loaded are made first, in order.
 * Returns a stop function.
 */
export const listenForShortcuts = (startConnection: (source: string) => void, early: EarlyShortcuts = { pressed: [], pasted: [] }) => {
  let clip: NodeClip | null = null;
  let pastes = 0;
  const placeCopies = (from: NodeClip, times: number) => {
    const { edit, select, foreign } = useApp.getState();
    // A server's LangGraph graph takes no edits: said, rather than a paste that does nothing.
    if (foreign) return void useApp.setState({ importError: `Could not paste the nodes: ${FOREIGN_EDIT_NOTE}.` });
    let ids: string[] = [];
    edit((graph) => {
      const pasted = pasteNodes(graph, from, times);
      ids = pasted.ids;
      return pasted.graph;
    });
    select({ nodes: ids, edges: [] });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (isTyping(event.target)) return;
    const action = shortcutOf(event);
    if (!action) return;
    const state = useApp.getState();
    if (action === 'connect') {
      // Only from one selected node, and not while a dialog is open.
      if (state.selection.nodes.length !== 1 || document.querySelector('dialog[open]')) return;
      startConnection(state.selection.nodes[0]);
    }
    if (action === 'undo') state.undo();
    if (action === 'redo') state.redo();
    if (action === 'copy') {
      const copied = copyNodes(state.graph, state.selection.nodes);
      if (!copied) return;
      clip = copied;
      pastes = 0;
      // The system clipboard is a bonus (another tab, another app); the copy above is what pastes here.
      void navigator.clipboard?.writeText(JSON.stringify(copied, null, 2)).catch(() => undefined);
    }
    if (action === 'paste') {
      // The browser's paste event follows; it imports a graph document if that is what the clipboard holds.
      if (!clip) return;
      pastes += 1;
      placeCopies(clip, pastes);
    }
    if (action === 'duplicate') {
      const copied = copyNodes(state.graph, state.selection.nodes);
      if (copied) placeCopies(copied, 1);
    }
    event.preventDefault();
  };
  const onPaste = (event: ClipboardEvent) => {
    if (isTyping(event.target)) return;
    // Outside a text field the browser does nothing with a paste.
    event.preventDefault();
    pasteText(event.clipboardData?.getData('text/plain') ?? '');
  };
  // The text is read once its reader has loaded, with the schemas that check copied nodes (after the first screen).
  const pasteText = (text: string) =>
    void import('./pasteText.ts').then(({ classifyClipboardText }) => {
      const found = classifyClipboardText(text);
      if (found.type === 'graph') void import('./importExport.ts').then(({ importGraphText }) => importGraphText(found.text, 'the pasted text'));
      else if (found.type === 'nodes' && !clip) placeCopies(found.clip, 1);
      else if (found.type === 'refused') useApp.getState().importParsed({ ok: false, problems: found.problems }, 'the pasted nodes');
    });
  early.pressed.forEach(onKeyDown);
  early.pasted.forEach(pasteText);
  window.addEventListener('keydown', onKeyDown);
  window.addEventListener('paste', onPaste);
  return () => {
    window.removeEventListener('keydown', onKeyDown);
    window.removeEventListener('paste', onPaste);
  };
};
