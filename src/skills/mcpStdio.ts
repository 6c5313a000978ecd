/**
 * The stdio transport of the MCP servers the command line starts (Node only): the SDK's
 * StdioClientTransport's protocol (its message buffer, its default environment), but the server
 * starts as the leader of a process group of its own, and stopping it stops the whole group. A
 * server that starts programs of its own (`npx` starts node, a server its workers) leaves none of
 * them behind: the SDK's transport signals its PID alone, and a grandchild outlived the run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How long a server is given to end after its stdin closes, then after SIGTERM. */
const GRACE_MS = 2_000;

/** Where process groups exist: Windows has none, and there the process alone is signalled. */
const GROUPS = process.platform !== 'win32';

/**
 * Sends `signal` to the group `child` leads; where there is no group, to `child` alone while it runs
 * (a PID that ended may be another process's by now).
 */
const signalGroup = (child: Pick<ChildProcess, 'pid' | 'exitCode' | 'signalCode'>, signal: NodeJS.Signals) => {
  if (child.pid === undefined) return;
  try {
    if (GROUPS) {
      process.kill(-child.pid, signal);
      return;
    }
  } catch {
    // No group of that id is left: nothing of the server runs, or the platform has none.
  }
  if (child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(child.pid, signal);
    } catch {
      // Gone already.
    }
  }
};

export interface GroupStdioOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

const waitFor = (ended: Promise<void>, ms: number) => Promise.race([ended, new Promise<void>((done) => setTimeout(done, ms).unref())]);

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private ended: Promise<void> = Promise.resolve();
  private readonly buffer = new ReadBuffer();
  private readonly options: GroupStdioOptions;
  /** The server's stderr, there before it starts so that nothing it says first is lost (a line of it names a failure). */
  readonly stderr = new PassThrough();

  constructor(options: GroupStdioOptions) {
    this.options = options;
  }

  /** The server's PID, the id of its process group too, once started. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('the MCP server was started already');
    const { command, args, cwd, env } = this.options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, { cwd, env: { ...getDefaultEnvironment(), ...env }, stdio: ['pipe', 'pipe', 'pipe'], shell: false, detached: GROUPS, windowsHide: true });
      this.child = child;
      child.stderr?.pipe(this.stderr);
      this.ended = new Promise((done) => child.once('close', () => done()));
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.once('close', () => {
        // What the server started goes with it, whether it ended on its own or was stopped.
        signalGroup(child, 'SIGKILL');
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
          for (let message = this.buffer.readMessage(); message !== null; message = this.buffer.readMessage()) this.onmessage?.(message);
        } catch (error) {
          // A line that is not a message, or one over the buffer's bound: the server is not spoken to any more.
          this.onerror?.(error as Error);
          void this.close();
        }
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin) return reject(new Error('Not connected'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Signals the server's whole group at once (the process is leaving: there is no time to wait). */
  kill(signal: NodeJS.Signals) {
    if (this.child) signalGroup(this.child, signal);
  }

  /** Closes the server's stdin, then SIGTERM, then SIGKILL, each to its whole process group. */
  async close(): Promise<void> {
    const child = this.child;
    if (child) {
      child.stdin?.end();
      await waitFor(this.ended, GRACE_MS);
      signalGroup(child, 'SIGTERM');
      await waitFor(this.ended, GRACE_MS);
      signalGroup(child, 'SIGKILL');
      await waitFor(this.ended, GRACE_MS);
    }
    this.buffer.clear();
  }
}
