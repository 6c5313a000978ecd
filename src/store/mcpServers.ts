/**
 * Where the page finds the MCP servers a graph names. The static page cannot read the project's
 * `.mcp.json` nor start programs: it reaches URL servers only (Streamable HTTP), at the address the
 * person gives for each server name, once, in the run's network question. The addresses belong to
 * this browser, keyed by server name, never to the graph: a graph someone sends names a server but
 * cannot say where it is. They are kept between visits by src/persistence/browserSettings.ts.
 * (Under `loopscope open`, the folder's own `.mcp.json` is reached through the local server instead.)
 */
import { create } from 'zustand';

/** The address given for each server name, in this browser. */
export const useMcpServerUrls = create<Record<string, string>>()(() => ({}));

export const serverUrl = (name: string): string | undefined => {
  const urls = useMcpServerUrls.getState();
  return Object.hasOwn(urls, name) ? urls[name] : undefined;
};

/** Keeps (or, with an empty address, forgets) the address of a server name. */
export const setServerUrl = (name: string, url: string) => {
  const urls = { ...useMcpServerUrls.getState() };
  if (url.trim()) urls[name] = url.trim();
  else delete urls[name];
  useMcpServerUrls.setState(urls, true);
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
