/**
 * Where the page finds the MCP servers a graph names. The static page cannot read the project's
 * `.mcp.json` nor start programs: it reaches URL servers only (Streamable HTTP), at the address the
 * person gives for each server name, once, in the run's network question. The addresses stay in
 * this browser (localStorage), keyed by server name, never in the graph: a graph someone sends
 * names a server but cannot say where it is. (Under `loopscope open`, the folder's own `.mcp.json`
 * is reached through the local server instead.)
 */
const STORAGE_KEY = 'loopscope.mcpServerUrls';

const storage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

/** The address given for each server name, in this browser. */
export const serverUrls = (): Record<string, string> => {
  try {
    const value: unknown = JSON.parse(storage()?.getItem(STORAGE_KEY) ?? '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
};

export const serverUrl = (name: string): string | undefined => (Object.hasOwn(serverUrls(), name) ? serverUrls()[name] : undefined);

/** Keeps (or, with an empty address, forgets) the address of a server name. */
export const setServerUrl = (name: string, url: string) => {
  const urls = serverUrls();
  if (url.trim()) urls[name] = url.trim();
  else delete urls[name];
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(urls));
  } catch {
    // A full or refused storage: the address is asked again next time.
  }
};

/** Why an address cannot be a Streamable HTTP server's, or null. */
export const badServerUrl = (url: string): string | null => {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? null : 'an http:// or https:// address';
  } catch {
    return url.trim() ? 'not an address (e.g. http://127.0.0.1:3001/mcp)' : 'the page needs the server\'s address';
  }
};
