/**
 * Which keys are the editor's shortcuts. On the first screen, without what they do (shortcuts.ts,
 * loaded after the canvas's first commit): a shortcut pressed before then is known, kept and made
 * once they have loaded (Canvas.tsx).
 */

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
