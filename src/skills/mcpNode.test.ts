/**
 * A stdio server's own programs stop with it (issue 51): the node connector starts each server as
 * the leader of a process group and stops the group, not the PID alone. What it says on stderr is
 * kept only as the end of its last line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeConnector, type NodeConnector } from './mcpNode.ts';
import { FIXTURE_SERVER } from './mcpTesting.ts';

let dir: string;
let connector: NodeConnector | undefined;
let pids: number[] = [];

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits, at most `ms`, until `done` holds. */
const until = async (done: () => boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return done();
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loopscope-mcp-group-'));
});

afterEach(async () => {
  await connector?.close();
  connector = undefined;
  // Whatever a failed test left: killed by its own PID.
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  pids = [];
  await rm(dir, { recursive: true, force: true });
});

/** Starts the fixture server, which starts a program of its own; its PID and that program's. */
const startServerWithChild = async (extra: string[] = []) => {
  const file = join(dir, 'pids');
  connector = createNodeConnector({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE_SERVER, '--child', file, ...extra] } } }, { dir });
  await (await connector.connect('fixture')).tools();
  expect(await until(() => existsSync(file) && readFileSync(file, 'utf8').includes(' '))).toBe(true);
  pids = readFileSync(file, 'utf8').split(' ').map(Number);
  expect(pids.every(alive)).toBe(true);
  return connector;
};

describe('a stdio server that starts a program of its own', () => {
  it('is stopped with that program when the connector closes', async () => {
    await (await startServerWithChild()).close();
    expect(await until(() => !pids.some(alive))).toBe(true);
  });

  it('that ignores its stdin closing is stopped with that program too', async () => {
    await (await startServerWithChild(['--stay'])).close();
    expect(await until(() => !pids.some(alive))).toBe(true);
  });

  it('that dies on its own takes that program with it', async () => {
    const connection = await (await startServerWithChild()).connect('fixture');
    await connection.call('crash', {}, 5_000).catch(() => undefined);
    expect(await until(() => !pids.some(alive))).toBe(true);
  });
});

describe('a stdio server that floods its stderr', () => {
  it('is named by the end of its last words only: a line of 20 MB with no line break is not kept whole', async () => {
    // 20 MB on stderr in one line, then it ends before any handshake.
    const flood = "const s = 'x'.repeat(1 << 20); let n = 0; const more = () => { while (n < 20) { n += 1; if (!process.stderr.write(s)) return process.stderr.once('drain', more); } process.stderr.write('the real reason', () => process.exit(1)); }; more();";
    connector = createNodeConnector({ mcpServers: { flood: { command: process.execPath, args: ['-e', flood] } } }, { dir });
    const failure = await connector.connect('flood').then(() => null, (error: Error) => error);
    expect(failure?.message).toMatch(/^the MCP server "flood" could not be started or reached: .*; its last words on stderr: …x+the real reason$/);
    expect(failure?.message.length).toBeLessThan(1_000);
  }, 20_000);
});
