/**
 * Whether this page was served by `loopscope open`: the address it printed carries the server's
 * token (`#token=…`; it stays in the address, so a reload or a second tab on it reaches the folder
 * too). Small: the first screen asks it to know where the graphs are; the rest comes with the
 * folder's library (folderStart.ts).
 */
export const servedByOpen = () => window.location.hash.includes('token=');
