/**
 * Autosaves written by a worker (save.worker.ts): handing it the text costs the page a copy of a
 * string (a few ms at 10,000 nodes), where the write itself (IndexedDB copying the value, then
 * reading it back to check it) held the page's thread for over a frame. Where the worker cannot
 * write (it did not start, or the database is not made or upgraded yet, which the page does), the
 * page writes itself.
 */
type Write = (id: string, name: string, text: string) => Promise<void>;
type Reply = { seq: number; ok: true } | { seq: number; ok: false; name: string; message: string } | { seq: number; unopened: true };

export const saveWorker = () => {
  let worker: Worker | null = null;
  let failed = false;
  let seq = 0;
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void; here: () => Promise<void> }>();
  const start = () => {
    const started = new Worker(new URL('./save.worker.ts', import.meta.url), { type: 'module' });
    started.onmessage = ({ data }: MessageEvent<Reply>) => {
      const waiter = waiting.get(data.seq);
      if (!waiter) return;
      waiting.delete(data.seq);
      if ('unopened' in data) waiter.here().then(waiter.resolve, waiter.reject);
      else if (data.ok) waiter.resolve();
      // As the page's own write would have failed: a full storage is still named so.
      else waiter.reject(Object.assign(new Error(data.message), { name: data.name }));
    };
    started.onerror = (event) => {
      event.preventDefault();
      failed = true;
      started.terminate();
      worker = null;
      for (const waiter of waiting.values()) waiter.here().then(waiter.resolve, waiter.reject);
      waiting.clear();
    };
    return started;
  };
  return (id: string, name: string, text: string, here: Write): Promise<void> => {
    if (failed) return here(id, name, text);
    worker ??= start();
    seq += 1;
    const sent = worker;
    const message = { seq, id, name, text };
    return new Promise<void>((resolve, reject) => {
      waiting.set(message.seq, { resolve, reject, here: () => here(id, name, text) });
      sent.postMessage(message);
    });
  };
};
