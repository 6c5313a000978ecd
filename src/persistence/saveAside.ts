/**
 * Autosaves written by a worker (save.worker.ts): handing it the text costs the page a copy of a
 * string (made a part at a time, `TEXT_PART`), where the write itself held the page's thread for over a
 * frame (IndexedDB copying the value, then reading it back to check it; a request's body made of
 * the text). Where the worker cannot write (it did not start, or the database is not made or
 * upgraded yet, which the page does), the page writes itself.
 */

/** The next task: what lets the page draw between two parts of a long job. */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

/**
 * Characters of a save's text handed to the worker in one task: handed whole, a 10,000-node
 * graph's text (megabytes) was copied in one task of over a frame. The rest goes ahead in parts
 * (`SavePart`), one a task, and the worker joins them.
 */
export const TEXT_PART = 1 << 19;

/** A save for the worker: into the library (IndexedDB), or a graph file through the server of `loopscope open`. */
export type SaveJob = { kind: 'library'; id: string; name: string; text: string; editedAt?: number } | { kind: 'put'; url: string; token: string; text: string };
/** A part of the text of save `seq`, ahead of the save, whose `text` is the rest. */
export type SavePart = { seq: number; part: string };
/** The worker's answer: done (with the server's answer to a `put`), failed, or not its to do. */
export type SaveReply = { seq: number; ok: true; answer?: unknown } | { seq: number; ok: false; name: string; message: string; status?: number } | { seq: number; unopened: true };

export const saveWorker = () => {
  let worker: Worker | null = null;
  let failed = false;
  let seq = 0;
  const waiting = new Map<number, { settle: (reply: SaveReply) => void; here: () => void }>();
  const start = () => {
    const started = new Worker(new URL('./save.worker.ts', import.meta.url), { type: 'module' });
    started.onmessage = ({ data }: MessageEvent<SaveReply>) => {
      const waiter = waiting.get(data.seq);
      waiting.delete(data.seq);
      waiter?.settle(data);
    };
    started.onerror = (event) => {
      event.preventDefault();
      failed = true;
      started.terminate();
      worker = null;
      for (const waiter of waiting.values()) waiter.here();
      waiting.clear();
    };
    return started;
  };
  return <T>(job: SaveJob, here: () => Promise<T>): Promise<T> => {
    if (failed) return here();
    worker ??= start();
    seq += 1;
    const sent = worker;
    const message = { seq, ...job };
    // From the next task on: the text was just written (autosave.ts), its last step a task's worth.
    const hand = async () => {
      let at = 0;
      for (; job.text.length - at > TEXT_PART; at += TEXT_PART) {
        await nextTask();
        sent.postMessage({ seq: message.seq, part: job.text.slice(at, at + TEXT_PART) } satisfies SavePart);
      }
      await nextTask();
      sent.postMessage({ ...message, text: at === 0 ? job.text : job.text.slice(at) });
    };
    return new Promise<T>((resolve, reject) => {
      const writeHere = () => void here().then(resolve, reject);
      const settle = (reply: SaveReply) => {
        if ('unopened' in reply) writeHere();
        else if (reply.ok) resolve(reply.answer as T);
        // As the page's own write would have failed: a full storage, a server's refusal, named as they are.
        else reject(Object.assign(new Error(reply.message), { name: reply.name, ...(reply.status === undefined ? {} : { status: reply.status }) }));
      };
      waiting.set(message.seq, { settle, here: writeHere });
      void hand();
    });
  };
};
