/**
 * The address this browser gave each MCP server name (src/store/mcpServers.ts), kept between
 * visits. Read once the first screen is drawn: nothing asks for an address before a run or the
 * inspector, which load after it.
 */
import { useMcpServerUrls } from '../store/mcpServers.ts';
import { read, write } from './browserSettings.ts';

export const MCP_SERVER_URLS_KEY = 'loopscope.mcpServerUrls';

/** The addresses kept, without anything that is not a name and a text. */
const readServerUrls = (): Record<string, string> => {
  try {
    const value: unknown = JSON.parse(read(MCP_SERVER_URLS_KEY) ?? '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
};

/** Puts the remembered addresses in their store and keeps them as they change; returns the way to stop keeping them. */
export const keepMcpServerUrls = (): (() => void) => {
  useMcpServerUrls.setState(readServerUrls(), true);
  return useMcpServerUrls.subscribe((urls) => write(MCP_SERVER_URLS_KEY, JSON.stringify(urls)));
};
