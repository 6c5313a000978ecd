/**
 * One tab at a time edits a graph of the library: the tab that opened it first holds its Web Lock,
 * and only the holder saves it. Another tab that opens the same graph is told so and may take it
 * over: the holder saves what it has, lets go, and is told in turn. The tabs also tell each other
 * what they saved, so every tab's list of graphs stays current without reading the library again.
 */
import type { LibrarySummary } from './persistence.ts';

export interface GraphLocks {
  /**
   * Holds the graph's lock when no other tab does (true); `onLost` runs when another tab takes it
   * over. A plain `true` when the answer is known at once (no locks here).
   */
  claim: (id: string, onLost: () => void) => Promise<boolean> | true;
  /** Takes the graph over from the tab holding it, once that tab has saved what it has. */
  takeOver: (id: string, onLost: () => void) => Promise<void>;
  release: (id: string) => void;
  /** What this tab does before it lets another tab take a graph over: save its last edits. */
  onHandover: (beforeRelease: (id: string) => Promise<void>) => void;
  announceSaved: (entry: LibrarySummary) => void;
  onSaved: (handler: (entry: LibrarySummary) => void) => void;
  close: () => void;
}

/** Without Web Locks (an old browser, the unit tests) every tab holds every graph, as before. */
export const noGraphLocks = (): GraphLocks => ({
  claim: () => true,
  takeOver: async () => {},
  release: () => {},
  onHandover: () => {},
  announceSaved: () => {},
  onSaved: () => {},
  close: () => {},
});

const CHANNEL = 'loopscope.graphs';
const lockName = (id: string) => `loopscope.graph.${id}`;
/** A holder that does not answer (a frozen background tab) loses the graph after this long. */
const HANDOVER_WAIT_MS = 2000;

type Message = { type: 'handover'; id: string } | { type: 'saved'; entry: LibrarySummary };

export const webGraphLocks = (locks: LockManager | undefined = globalThis.navigator?.locks): GraphLocks => {
  if (!locks || typeof BroadcastChannel === 'undefined') return noGraphLocks();
  const channel = new BroadcastChannel(CHANNEL);
  /** The locks this tab holds: how to let go of each, and what to do when another tab takes it. */
  const held = new Map<string, { release: () => void; onLost: () => void }>();
  let beforeRelease: (id: string) => Promise<void> = async () => {};
  let savedHandler: (entry: LibrarySummary) => void = () => {};

  /** Asks for the lock; resolves true once held, false when `ifAvailable` found it taken. */
  const request = (id: string, onLost: () => void, options: LockOptions) => {
    const token = { release: () => {}, onLost };
    return new Promise<boolean>((resolve) => {
      locks
        .request(lockName(id), options, (lock) => {
          if (!lock) {
            resolve(false);
            return undefined;
          }
          held.set(id, token);
          resolve(true);
          return new Promise<void>((release) => (token.release = release));
        })
        // Stolen by a tab that stopped waiting for this one, or a request given up.
        .catch(() => {
          resolve(false);
          if (held.get(id) !== token) return;
          held.delete(id);
          onLost();
        });
    });
  };

  channel.onmessage = (event: MessageEvent<Message>) => {
    const message = event.data;
    if (message.type === 'saved') savedHandler(message.entry);
    else if (message.type === 'handover') {
      const holding = held.get(message.id);
      if (!holding) return;
      void beforeRelease(message.id)
        .catch(() => undefined)
        .then(() => {
          if (held.get(message.id) !== holding) return;
          held.delete(message.id);
          holding.release();
          holding.onLost();
        });
    }
  };

  return {
    claim: (id, onLost) => (held.has(id) ? Promise.resolve(true) : request(id, onLost, { ifAvailable: true })),
    takeOver: async (id, onLost) => {
      if (held.has(id)) return;
      const waiting = new AbortController();
      const queued = request(id, onLost, { signal: waiting.signal });
      channel.postMessage({ type: 'handover', id } satisfies Message);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), HANDOVER_WAIT_MS)));
      const first = await Promise.race([queued, late]);
      clearTimeout(timer);
      if (first === true) return;
      waiting.abort();
      await request(id, onLost, { steal: true });
    },
    release: (id) => {
      const holding = held.get(id);
      held.delete(id);
      holding?.release();
    },
    onHandover: (handler) => {
      beforeRelease = handler;
    },
    announceSaved: (entry) => channel.postMessage({ type: 'saved', entry } satisfies Message),
    onSaved: (handler) => {
      savedHandler = handler;
    },
    close: () => {
      for (const holding of held.values()) holding.release();
      held.clear();
      channel.close();
    },
  };
};
