import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveWorker, TEXT_PART } from './saveAside.ts';

/** The save worker (save.worker.ts) as a page's worker: its messages cloned, each handled in a task of its own. */
const fakeWorker = () => {
  const sent: unknown[] = [];
  let onPage: ((event: { data: unknown }) => void) | null = null;
  class FakeWorker {
    onerror = null;
    set onmessage(handler: (event: { data: unknown }) => void) {
      onPage = handler;
    }
    postMessage(message: unknown) {
      sent.push(message);
      const copy = structuredClone(message);
      setTimeout(() => (globalThis as unknown as { onmessage: (event: { data: unknown }) => void }).onmessage({ data: copy }));
    }
    terminate() {}
  }
  vi.stubGlobal('Worker', FakeWorker);
  // Where the worker's script puts its handler.
  vi.stubGlobal('onmessage', null);
  vi.stubGlobal('postMessage', (reply: unknown) => setTimeout(() => onPage?.({ data: structuredClone(reply) })));
  return sent;
};

afterEach(() => vi.unstubAllGlobals());

describe('the save worker', () => {
  it("is handed a big save's text in parts, one a task, and writes it whole", async () => {
    const sent = fakeWorker();
    const bodies: string[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => (bodies.push(String(init.body)), Response.json({ ok: true })));
    await import('./save.worker.ts');
    const text = `{"name": "${'x'.repeat(TEXT_PART * 2 + 12)}"}\n`;
    const aside = saveWorker();
    const written = aside({ kind: 'put', url: 'http://127.0.0.1/file', token: 't', text }, () => Promise.reject(new Error('written on the page')));
    // Nothing in the task of the call (it wrote the text): the parts follow, each in a task of its own.
    expect(sent).toHaveLength(0);
    await expect(written).resolves.toEqual({ ok: true });
    expect(sent).toHaveLength(3);
    for (const message of sent) expect(JSON.stringify(message).length).toBeLessThan(TEXT_PART + 200);
    expect(bodies).toEqual([text]);
  });
});
