/** Writes autosaves off the page's thread (saveAside.ts), with the page's own writes (libraryWrite.ts, serverCall.ts). */
import { DB_NAME, DB_VERSION } from './libraryDb.ts';
import { writeSave } from './libraryWrite.ts';
import type { SaveJob, SavePart, SaveReply } from './saveAside.ts';
import { callServer } from './serverCall.ts';

let opening: Promise<IDBDatabase | null> | null = null;
/** The database as the page made it; null where it is not made or upgraded yet (the page does that, with all it needs). */
const open = () =>
  (opening ??= new Promise((resolve) => {
    const req = indexedDB.open(DB_NAME, DB_VERSION);
    req.onupgradeneeded = () => req.transaction?.abort();
    req.onsuccess = () => {
      const db = req.result;
      // Another page upgrading it: let it, and open again on the next save.
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      resolve(db);
    };
    req.onerror = () => {
      opening = null;
      resolve(null);
    };
    req.onblocked = () => {
      opening = null;
      resolve(null);
    };
  }));

const answer = (reply: SaveReply) => postMessage(reply);

/** Per save, the parts of its text come ahead of it (saveAside.ts). */
const ahead = new Map<number, string[]>();

onmessage = async ({ data }: MessageEvent<(SaveJob & { seq: number }) | SavePart>) => {
  if ('part' in data) {
    const parts = ahead.get(data.seq) ?? [];
    ahead.set(data.seq, parts);
    return void parts.push(data.part);
  }
  const { seq, ...job } = data;
  const parts = ahead.get(seq);
  ahead.delete(seq);
  if (parts) job.text = parts.join('') + job.text;
  try {
    if (job.kind === 'put') return answer({ seq, ok: true, answer: await (await callServer(job.url, job.token, 'PUT', { body: job.text })).json() });
    const db = await open();
    if (!db) return answer({ seq, unopened: true });
    await writeSave(db, job.id, job.name, job.text, job.editedAt);
    answer({ seq, ok: true });
  } catch (error) {
    const { name = 'Error', message = String(error), status } = error instanceof Error || error instanceof DOMException ? (error as Error & { status?: number }) : {};
    answer({ seq, ok: false, name, message, ...(status === undefined ? {} : { status }) });
  }
};
