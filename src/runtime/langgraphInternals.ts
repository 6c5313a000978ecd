/**
 * Where the runtime leans on LangGraph's internals rather than its public API, each for a measured
 * reason (docs/performance.md), all in this one module, and each held by a contract test
 * (langgraphInternals.test.ts) that builds a bare StateGraph and fails, naming what changed, on an
 * upgrade of @langchain/langgraph that no longer does what is relied on here:
 * - FieldChannel poses as LastValue (LangGraph checks a field's channel by that name);
 * - the compiled graph's trigger channels are swapped for quiet ones (`compiled.channels`);
 * - routes are attached again without LangGraph's fresh reader (`attachBranch`, the
 *   `<branch_run>` writers) and read the step's values through `configurable.__pregel_read`.
 */
import type { Runnable } from '@langchain/core/runnables';
import { EphemeralValue } from '@langchain/langgraph/channels';
import { BaseChannel, InvalidUpdateError, START, type LangGraphRunnableConfig } from '@langchain/langgraph/web';
import { refusedWrite, type OutsideWriteCheck } from './outsideWrites.ts';

/**
 * A field's channel: LangGraph's LastValue (one write a step, the last value kept) but for reading
 * while empty. LangGraph reads every field several times a step (a node's input, a route's fresh
 * read, the checkpoint, the values it keeps for its stream), and a LastValue nothing has written
 * yet (the `response` of a respond node a loop has not reached) throws an EmptyChannelError at each
 * read, caught at once. Four exceptions a step per such field cost a browser more than the runtime's
 * own work (a CPU profile of the 10,000-round bench). This one reads as undefined while empty, and
 * the values read drop it (`presentValues`); it stays unavailable, so it triggers nothing.
 */
export class FieldChannel extends BaseChannel<unknown, unknown, unknown> {
  // LangGraph checks a state field's channel by this name (a schema added twice must agree).
  lc_graph_name = 'LastValue';
  value: [unknown] | [] = [];
  /** On a served graph: what a write from outside the runtime's nodes must pass (outsideWrites.ts). */
  private readonly outside: OutsideWriteCheck | undefined;

  constructor(outside?: OutsideWriteCheck) {
    super();
    this.outside = outside;
  }

  fromCheckpoint(checkpoint?: unknown): this {
    const channel = new FieldChannel(this.outside);
    if (checkpoint !== undefined) channel.value = [checkpoint];
    return channel as this;
  }

  update(values: unknown[]): boolean {
    if (values.length === 0) return false;
    if (values.length !== 1) throw new InvalidUpdateError('LastValue can only receive one value per step.', { lc_error_code: 'INVALID_CONCURRENT_GRAPH_UPDATE' });
    const refused = this.outside && refusedWrite(this.outside, values, this.value[0]);
    if (refused) throw new InvalidUpdateError(refused);
    this.value = [values[0]];
    return true;
  }

  get(): unknown {
    return this.value[0];
  }

  checkpoint(): unknown {
    return this.value[0];
  }

  isAvailable(): boolean {
    return this.value.length !== 0;
  }
}

/**
 * LangGraph's EphemeralValue (the `branch:to:<node>` channel that triggers a node, and `__start__`)
 * but checkpointed while empty as undefined, not by throwing. LangGraph checkpoints every channel
 * after every step and catches the EmptyChannelError each untriggered one throws: a graph has one
 * such channel a node, nearly all empty at any step, and those errors were about 7 % of a
 * 10,000-round run in the browser (a CPU profile of the bench). Undefined reads back as empty.
 */
class TriggerChannel extends EphemeralValue<unknown> {
  fromCheckpoint(checkpoint?: unknown): this {
    const channel = new TriggerChannel(this.guard);
    if (checkpoint !== undefined) channel.value = [checkpoint];
    return channel as this;
  }

  checkpoint(): unknown {
    return this.value[0];
  }
}

/** The name LangGraph gives the writer that runs a node's conditional edges. */
const BRANCH_WRITER = '<branch_run>';

/**
 * The channels as the step began: LangGraph's own read (Pregel's CONFIG_KEY_READ, not fresh). A
 * route is attached without LangGraph's reader, which reads the state "fresh": it builds a whole
 * new checkpoint with the node's writes applied, copying every channel's version and every node's
 * versions seen, so a step cost grew with the graph's size (issue 40, #14). A route gets the
 * node's update instead; over these values it is exactly what that fresh read gave, since every
 * state channel keeps its one last write (FieldChannel). An update made as a node (`updateState`,
 * a fork) runs the route the same way.
 */
export const stepStartValues = (config: LangGraphRunnableConfig, fields: string[]): Record<string, unknown> => {
  const read = config.configurable?.__pregel_read as ((select: string[], fresh: boolean) => Record<string, unknown>) | undefined;
  if (!read) throw new Error('a route reads the state inside a LangGraph step');
  return read(fields, false);
};

/**
 * A compiled graph with its trigger channels made quiet (TriggerChannel) and each node's routes
 * attached again without LangGraph's fresh read (see stepStartValues). The compile attaches a
 * graph's conditional edges last, after LangGraph's own route for a Command a node returns
 * (attached without a reader): only ours are replaced.
 */
export const withLeanSteps = <Compiled extends { channels: unknown; nodes: unknown; attachBranch: (...args: never[]) => unknown }>(compiled: Compiled, branches: Record<string, Record<string, unknown>>): Compiled => {
  const channels = compiled.channels as Record<string, BaseChannel>;
  for (const [name, channel] of Object.entries(channels)) if (channel instanceof EphemeralValue) channels[name] = new TriggerChannel(channel.guard);
  const attach = compiled.attachBranch.bind(compiled) as (source: string, name: string, branch: unknown, options: { withReader: boolean }) => void;
  for (const [source, routes] of Object.entries(branches)) {
    if (source === START) continue;
    const node = (compiled.nodes as Record<string, { writers: Runnable[] }>)[source];
    const ours = node.writers.splice(-Object.keys(routes).length);
    if (!ours.every((writer) => writer.getName() === BRANCH_WRITER)) throw new Error(`LangGraph attached the routes of "${source}" otherwise than this version expects`);
    for (const [name, branch] of Object.entries(routes)) attach(source, name, branch, { withReader: false });
  }
  return compiled;
};
