/**
 * Autosaves written by a worker (save.worker.ts): handing it the text costs the page a copy of a
 * string (a few ms at 10,000 nodes), where the write itself held the page's thread for over a
 * frame (IndexedDB copying the value, then reading it back to check it; a request's body made of
 * the text). Where the worker cannot write (it did not start, or the database is not made or
 * upgraded yet, which the page does), the page writes itself.
 */

/** A save for the worker: into the library (IndexedDB), or a graph file through the server of `loopscope open`. */
export type SaveJob = { kind: 'library'; id: string; name: string; text: string } | { kind: 'put'; url: string; token: string; text: string };
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
    return new Promise<T>((resolve, reject) => {
      const writeHere = () => void here().then(resolve, reject);
      const settle = (reply: SaveReply) => {
        if ('unopened' in reply) writeHere();
        else if (reply.ok) resolve(reply.answer as T);
        // As the page's own write would have failed: a full storage, a server's refusal, named as they are.
        else reject(Object.assign(new Error(reply.message), { name: reply.name, ...(reply.status === undefined ? {} : { status: reply.status }) }));
      };
      waiting.set(message.seq, { settle, here: writeHere });
      sent.postMessage(message);
    });
  };
};
