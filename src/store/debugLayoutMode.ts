/**
 * Which layout the page is in, remembered between visits. Read on the first screen (the shell is
 * laid out for it), so it is as small as can be; the toggle that writes it comes with the debugger.
 */
export const DEBUG_LAYOUT_KEY = 'loopscope.layout.mode';

export const readDebugLayout = () => {
  try {
    return globalThis.localStorage?.getItem(DEBUG_LAYOUT_KEY) === 'debug';
  } catch {
    return false;
  }
};
