/** Keys typed into a form belong to the form, not to the page's shortcuts (the editor's and the debugger's). */
export const isTyping = (target: EventTarget | null) => {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
};
