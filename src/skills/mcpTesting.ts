/**
 * For tests that start real MCP servers: where the servers are (installed packages and the
 * fixture, started from node_modules with this very node, never through npx), a project folder of
 * their own, and the process list, to check that no server is left behind.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpConfig } from '../graph/mcpServers.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FILESYSTEM_SERVER = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const EVERYTHING_SERVER = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FIXTURE_SERVER = join(ROOT, 'src/skills/fixtures/mcp-fixture-server.mjs');
export const FILES_AGENT = join(ROOT, 'examples/files-agent');

/** A copy of the files template's folder in a temporary folder (a run writes into its data/). */
export const filesAgentCopy = async (): Promise<{ dir: string; remove: () => Promise<void> }> => {
  const dir = await mkdtemp(join(tmpdir(), 'loopscope-mcp-'));
  await cp(FILES_AGENT, dir, { recursive: true, filter: (source) => !source.endsWith('report.md') });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
};

/**
 * The servers of a test project in `dir`: the filesystem server on its data/ and the fixture (which
 * logs its writes to touched.log there), each from node_modules. Their command lines name `dir`,
 * so the process list tells a test's servers from any other.
 */
export const testServers = (dir: string, extra: McpConfig['mcpServers'] = {}): McpConfig => ({
  mcpServers: {
    files: { command: process.execPath, args: [FILESYSTEM_SERVER, join(dir, 'data')] },
    fixture: { command: process.execPath, args: [FIXTURE_SERVER, '--log', join(dir, 'touched.log')] },
    ...extra,
  },
});

/** The MCP servers (filesystem, everything, fixture) whose command line names `dir` (a test's own folder), from the process list. */
export const serversFor = (dir: string): string[] =>
  execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n')
    .filter((line) => line.includes(dir) && [FILESYSTEM_SERVER, EVERYTHING_SERVER, FIXTURE_SERVER].some((server) => line.includes(server)));
