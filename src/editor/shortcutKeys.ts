/**
 * Which keys are the editor's shortcuts. On the first screen, without what they do (shortcuts.ts,
 * loaded after the canvas's first commit): a shortcut pressed or a text pasted before then is
 * known, kept and made once they have loaded (Canvas.tsx).
 */
import { isTyping } from '../ui/typing.ts';

export type ShortcutAction = 'undo' | 'redo' | 'copy' | 'paste' | 'duplicate' | 'connect' | null;

export const shortcutOf = (event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): ShortcutAction => {
  if (!event.ctrlKey && !event.metaKey && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'c') return 'connect';
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = event.key.toLowerCase();
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && !event.shiftKey) return 'redo';
  if (key === 'c' && !event.shiftKey) return 'copy';
  if (key === 'v' && !event.shiftKey) return 'paste';
  if (key === 'd' && !event.shiftKey) return 'duplicate';
  return null;
};

/** The shortcuts pressed and the texts pasted on the page before shortcuts.ts had loaded, in order of their kind. */
export interface EarlyShortcuts {
  pressed: KeyboardEvent[];
  pasted: string[];
}

/**
 * Keeps the shortcuts pressed and the texts pasted outside a form, the browser doing nothing with
 * them, until the function returned is called. A paste's key is left to the browser: the copied
 * nodes it pastes are those copied since the shortcuts loaded (none), and its paste event brings
 * what the clipboard holds, read while the event lasts.
 */
export const keepEarlyShortcuts = (early: EarlyShortcuts, target: Window = window) => {
  const press = (event: KeyboardEvent) => {
    const action = shortcutOf(event);
    if (isTyping(event.target) || !action || action === 'paste') return;
    event.preventDefault();
    early.pressed.push(event);
  };
  const paste = (event: ClipboardEvent) => {
    if (isTyping(event.target)) return;
    event.preventDefault();
    early.pasted.push(event.clipboardData?.getData('text/plain') ?? '');
  };
  target.addEventListener('keydown', press);
  target.addEventListener('paste', paste);
  return () => {
    target.removeEventListener('keydown', press);
    target.removeEventListener('paste', paste);
  };
};
