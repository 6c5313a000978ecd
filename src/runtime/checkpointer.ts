/**
 * A LangGraph checkpointer with a retention policy, in memory. LangGraph's MemorySaver keeps every
 * checkpoint of a thread, each serialised whole: a long run grows without bound and pays for its
 * growing lists again at every step. This one keeps checkpoints by reference (a run's values are
 * never changed in place, so consecutive checkpoints share every value they did not rewrite) and
 * keeps only the newest few plus keyframes, spaced wider as they pile up, so its memory stays flat
 * however long the run. It also keeps the run's record: the channels each checkpoint wrote, in
 * order (a thread's journal, what a run session stores), the values a step's writes make before
 * its checkpoint is put (LangGraph streams a node's update before it checkpoints it), and answers
 * the state after any step: the newest writes, a checkpoint kept, or the nearest one kept with the
 * record replayed from there (`valuesAt`, journal.ts). The run reads its values here and keeps none.
 */
import {
  BaseCheckpointSaver, compareWritesSortKeys, copyCheckpoint, getCheckpointId, WRITES_IDX_MAP, writesSortKey,
  type ChannelVersions, type Checkpoint, type CheckpointListOptions, type CheckpointMetadata, type CheckpointPendingWrite, type CheckpointTuple, type PendingWrite,
} from '@langchain/langgraph-checkpoint';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { JournalEntry } from './controller.ts';
import { valuesAt } from './journal.ts';
import { RUN_CHANNEL, type RunLedger, type RunValues } from './state.ts';

export interface RetentionPolicy {
  /** The newest checkpoints of a thread kept in any case (resume, recent time travel). */
  keepNewest: number;
  /** A checkpoint at every this many LangGraph steps is kept as a keyframe. */
  keyframeEvery: number;
  /** Past this many keyframes every other one goes and the spacing doubles. */
  maxKeyframes: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { keepNewest: 32, keyframeEvery: 64, maxKeyframes: 256 };

/** The run a saver keeps the record of. */
export interface RunRecord {
  /** The run's channels (LangGraph's own, its triggers, are not the run's). */
  channels: readonly string[];
  /** Keeps what every step wrote (to store the run, or read a step whose checkpoint went); off, memory is the retention policy's alone. */
  keepWrites: boolean;
}

interface Stored {
  checkpoint: Checkpoint;
  metadata: CheckpointMetadata;
  parentId?: string;
  /** Pending writes by `taskId,idx`, as LangGraph stored them. */
  writes: Map<string, { taskId: string; channel: string; value: unknown; taskPath: string; idx: number }>;
  /** The run's channels in the checkpoint, read once when first asked for. */
  values?: RunValues;
  /** The run's channels after this checkpoint's pending writes: the step in flight, before its own checkpoint. */
  written?: RunValues;
}

interface Thread {
  byId: Map<string, Stored>;
  /** The newest checkpoints, oldest first. */
  recent: string[];
  keyframes: string[];
  spacing: number;
  /** What each checkpoint wrote of the run's channels, in order: the thread's journal. */
  journal: JournalEntry[];
}

const keyOf = (threadId: string, namespace: string) => `${threadId}\u0000${namespace}`;

const threadOf = (config: RunnableConfig) => {
  const threadId = config.configurable?.thread_id as string | undefined;
  if (threadId === undefined) throw new Error('a checkpoint needs a thread_id in config.configurable');
  return { threadId, namespace: (config.configurable?.checkpoint_ns as string | undefined) ?? '' };
};

export class RetainingSaver extends BaseCheckpointSaver {
  readonly policy: RetentionPolicy;
  private readonly threads = new Map<string, Thread>();
  private readonly run: RunRecord | undefined;
  private readonly recorded: ReadonlySet<string>;
  private readonly runChannels: ReadonlySet<string>;

  constructor(policy: Partial<RetentionPolicy> = {}, run?: RunRecord) {
    super();
    this.policy = { ...DEFAULT_RETENTION, ...policy };
    this.run = run;
    this.recorded = new Set(run?.keepWrites ? run.channels : []);
    this.runChannels = new Set(run?.channels);
  }

  private thread(config: RunnableConfig, create: true): Thread;
  private thread(config: RunnableConfig, create?: false): Thread | undefined;
  private thread(config: RunnableConfig, create = false) {
    const { threadId, namespace } = threadOf(config);
    return this.threadByKey(keyOf(threadId, namespace), create);
  }

  private threadByKey(key: string, create: boolean): Thread | undefined {
    let thread = this.threads.get(key);
    if (!thread && create) {
      thread = { byId: new Map(), recent: [], keyframes: [], spacing: this.policy.keyframeEvery, journal: [] };
      this.threads.set(key, thread);
    }
    return thread;
  }

  private tuple(config: RunnableConfig, id: string, stored: Stored): CheckpointTuple {
    const { threadId, namespace } = threadOf(config);
    const writes = [...stored.writes.values()]
      .map((write) => ({ write, key: writesSortKey(write.taskPath, write.taskId, write.idx) }))
      .sort((a, b) => compareWritesSortKeys(a.key, b.key))
      .map(({ write }): CheckpointPendingWrite => [write.taskId, write.channel, write.value]);
    return {
      config: { configurable: { thread_id: threadId, checkpoint_ns: namespace, checkpoint_id: id } },
      // A copy: LangGraph changes what it reads (a state snapshot applies pending writes to it).
      checkpoint: copyCheckpoint(stored.checkpoint),
      metadata: stored.metadata,
      pendingWrites: writes,
      ...(stored.parentId ? { parentConfig: { configurable: { thread_id: threadId, checkpoint_ns: namespace, checkpoint_id: stored.parentId } } } : {}),
    };
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const thread = this.thread(config);
    if (!thread) return undefined;
    const id = getCheckpointId(config) || thread.recent.at(-1);
    const stored = id === undefined ? undefined : thread.byId.get(id);
    return stored && this.tuple(config, id as string, stored);
  }

  /** Newest first: the recent checkpoints, then the keyframes before them. */
  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const thread = this.thread(config);
    if (!thread) return;
    const before = options.before ? getCheckpointId(options.before) : undefined;
    const wanted = getCheckpointId(config);
    let left = options.limit ?? Number.POSITIVE_INFINITY;
    const ids = [...new Set([...thread.keyframes, ...thread.recent])].sort().reverse();
    for (const id of ids) {
      if (left <= 0) return;
      if (wanted && id !== wanted) continue;
      if (before && id >= before) continue;
      const stored = thread.byId.get(id) as Stored;
      if (options.filter && !Object.entries(options.filter).every(([key, value]) => (stored.metadata as Record<string, unknown>)[key] === value)) continue;
      left -= 1;
      yield this.tuple(config, id, stored);
    }
  }

  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions?: ChannelVersions): Promise<RunnableConfig> {
    const thread = this.thread(config, true);
    if (newVersions && this.recorded.size > 0) this.record(thread, checkpoint, newVersions);
    const parentId = config.configurable?.checkpoint_id as string | undefined;
    // Kept as given: LangGraph hands over a checkpoint of its own making (a copy, or one made for
    // this put) and does not change it afterwards; copying it again here was a cost per step that
    // grew with the graph's size (every node's versions seen, issue 40, #14).
    thread.byId.set(checkpoint.id, { checkpoint, metadata, parentId, writes: new Map(), values: this.writtenBefore(thread, parentId, checkpoint, newVersions) });
    thread.recent.push(checkpoint.id);
    this.retain(thread);
    const { threadId, namespace } = threadOf(config);
    return { configurable: { thread_id: threadId, checkpoint_ns: namespace, checkpoint_id: checkpoint.id } };
  }

  /**
   * Keeps what this checkpoint wrote: the run's channels LangGraph gave a new version (a node's
   * writes, an edit, a run's input), by reference, as one journal entry at the run's step.
   */
  private record(thread: Thread, checkpoint: Checkpoint, newVersions: ChannelVersions) {
    let update: Record<string, unknown> | undefined;
    for (const channel in newVersions) if (this.recorded.has(channel)) (update ??= {})[channel] = checkpoint.channel_values[channel];
    if (!update) return;
    const step = (update[RUN_CHANNEL] as RunLedger | undefined)?.step ?? thread.journal.at(-1)?.step ?? 0;
    thread.journal.push({ step, update });
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath = ''): Promise<void> {
    const id = getCheckpointId(config);
    const stored = id ? this.thread(config)?.byId.get(id) : undefined;
    if (!stored) return;
    writes.forEach(([channel, value], index) => {
      const idx = WRITES_IDX_MAP[channel] ?? index;
      const key = `${taskId},${idx}`;
      // Special writes (errors, interrupts) replace; a task's own writes are stored once.
      if (idx >= 0 && stored.writes.has(key)) return;
      stored.writes.set(key, { taskId, channel, value, taskPath, idx });
    });
    if (!this.run) return;
    let update: Record<string, unknown> | undefined;
    for (const [channel, value] of writes) if (this.runChannels.has(channel)) (update ??= {})[channel] = value;
    if (update) stored.written = { ...(stored.written ?? this.valuesOf(stored)), ...update };
  }

  /**
   * The values a checkpoint's parent wrote, when this checkpoint holds them (a node's step: its
   * channels took those writes), so they are not read again from the checkpoint at every step.
   */
  private writtenBefore(thread: Thread, parentId: string | undefined, checkpoint: Checkpoint, newVersions: ChannelVersions | undefined): RunValues | undefined {
    const written = parentId === undefined ? undefined : thread.byId.get(parentId)?.written;
    if (!written || !newVersions) return undefined;
    for (const channel in newVersions) if (this.runChannels.has(channel) && checkpoint.channel_values[channel] !== written[channel]) return undefined;
    return written;
  }

  /** The run's channels a checkpoint holds (a field nothing had written is kept as undefined, and left out). */
  private valuesOf(stored: Stored): RunValues {
    if (stored.values) return stored.values;
    const values: Record<string, unknown> = {};
    const held = stored.checkpoint.channel_values;
    for (const name of this.run?.channels ?? []) if (held[name] !== undefined) values[name] = held[name];
    return (stored.values = values as RunValues);
  }

  /**
   * The run's values after `step` from the thread's newest checkpoints and their writes (undefined
   * when none of them holds it): a Run streams each node's update to its controller while LangGraph
   * goes on, so the step told may be the newest written or one checkpoint back.
   */
  private recentValues(thread: Thread, step: number): RunValues | undefined {
    for (let at = thread.recent.length - 1; at >= 0; at -= 1) {
      const stored = thread.byId.get(thread.recent[at]) as Stored;
      for (const values of [stored.written, this.valuesOf(stored)]) {
        // LangGraph's checkpoint of a run's input holds none of the run's channels yet.
        const at = values?._run?.step;
        if (at !== undefined && at <= step) return at === step ? values : undefined;
      }
    }
    return undefined;
  }

  /** The run's values after the thread's newest write (undefined before its first checkpoint). */
  latest(threadId: string): RunValues | undefined {
    const thread = this.threads.get(keyOf(threadId, ''));
    const newest = thread?.recent.at(-1);
    if (newest === undefined) return undefined;
    const stored = (thread as Thread).byId.get(newest) as Stored;
    const values = stored.written ?? this.valuesOf(stored);
    return values._run ? values : undefined;
  }

  async deleteThread(threadId: string): Promise<void> {
    for (const key of this.threads.keys()) if (key.startsWith(`${threadId}\u0000`)) this.threads.delete(key);
  }

  /** The checkpoints kept for a thread, newest first, for reading a step's state. */
  kept(threadId: string, namespace = ''): Checkpoint[] {
    const thread = this.threads.get(keyOf(threadId, namespace));
    if (!thread) return [];
    return [...new Set([...thread.keyframes, ...thread.recent])].sort().reverse().map((id) => (thread.byId.get(id) as Stored).checkpoint);
  }

  /** What a thread's checkpoints wrote, in order (empty unless the saver keeps writes): the run's journal. */
  journal(threadId: string): readonly JournalEntry[] {
    return this.threads.get(keyOf(threadId, ''))?.journal ?? [];
  }

  /** Starts a thread's journal with the entries of the run it continues (a run restored, or the steps a fork keeps), before its first checkpoint. */
  startJournal(threadId: string, entries: readonly JournalEntry[]) {
    if (this.recorded.size > 0) (this.threadByKey(keyOf(threadId, ''), true) as Thread).journal.push(...entries);
  }

  /**
   * The run's channel values after `step` on a thread whose run stands at `latest`: the newest
   * writes or checkpoint that hold it, else the nearest kept before it with the journal replayed from there; null when neither holds it.
   */
  valuesAt(threadId: string, step: number, latest: RunValues): RunValues | null {
    const thread = this.threads.get(keyOf(threadId, ''));
    const recent = thread && this.recentValues(thread, step);
    if (recent) return recent;
    const kept = this.kept(threadId);
    const values = function* () {
      for (const checkpoint of kept) yield checkpoint.channel_values;
    };
    return valuesAt({ channels: this.run?.channels ?? [], values: latest, journal: this.journal(threadId), kept: values() }, step);
  }

  /** How many checkpoints the saver holds over all threads (the bench watches it stay flat). */
  get size(): number {
    let total = 0;
    for (const thread of this.threads.values()) total += thread.byId.size;
    return total;
  }

  /** Drops what leaves the recent window unless it is a keyframe; thins the keyframes past their bound. */
  private retain(thread: Thread) {
    while (thread.recent.length > this.policy.keepNewest) {
      const id = thread.recent.shift() as string;
      const step = thread.byId.get(id)?.metadata.step ?? 0;
      if (step % thread.spacing === 0) thread.keyframes.push(id);
      else thread.byId.delete(id);
    }
    while (thread.keyframes.length > this.policy.maxKeyframes) {
      thread.spacing *= 2;
      const kept: string[] = [];
      for (const id of thread.keyframes) {
        const step = thread.byId.get(id)?.metadata.step ?? 0;
        if (step % thread.spacing === 0) kept.push(id);
        else thread.byId.delete(id);
      }
      thread.keyframes = kept;
    }
  }
}
