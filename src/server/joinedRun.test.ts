import { afterEach, describe, expect, it } from 'vitest';
import { useApp } from '../store/index.ts';
import { inProcessServer } from './inProcessServer.testing.ts';
import { disconnect, useServer, type Client } from './langgraphServer.ts';
import { connect } from './serverRun.ts';

afterEach(() => {
  disconnect();
  useApp.getState().reset();
});

/** A server whose thread has a run going on that another program started with `modes`; its join stream tells `chunks`. */
const withRunElsewhere = async (modes: string[], chunks: { event: string; data: unknown }[]) => {
  const server = inProcessServer();
  const client = server.client as unknown as { runs: Record<string, unknown> };
  const controller = await connect('http://server.test', server.client as Client);
  if (!controller) throw new Error('not connected');
  await controller.startRun({});
  const threadId = useServer.getState().thread?.id as string;
  const asked: unknown[] = [];
  client.runs.list = async (_thread: string, options: { status?: string }) => (options.status === 'running' ? [{ run_id: 'run-from-studio-0001', status: 'running', kwargs: { stream_mode: modes } }] : []);
  client.runs.joinStream = async function* (_thread: string, _run: string, options: unknown) {
    asked.push(options);
    yield* chunks;
  };
  await controller.openThread(threadId);
  return { asked, thread: useServer.getState().thread };
};

describe('a run joined from elsewhere', () => {
  it('is asked for the events stream mode, as a run started here', async () => {
    const { asked } = await withRunElsewhere(['updates', 'events'], [{ event: 'events', data: {} }, { event: 'updates', data: {} }]);
    expect(asked).toEqual([expect.objectContaining({ streamMode: ['updates', 'events'] })]);
  });

  it('says precisely why its routes, attempts and Send inputs are not shown when the server streams it no events', async () => {
    const { thread } = await withRunElsewhere(['updates'], [{ event: 'updates', data: {} }]);
    expect(thread?.untold).toBe('Run dio-0001 was started elsewhere with the stream modes updates, and the server streamed no events for it when joined (it streams a joined run in the modes it was started with): its routers\' return values, retry attempts and Send inputs are not shown; a run started here has them.');
  });

  it('says nothing of the kind when events came', async () => {
    const { thread } = await withRunElsewhere(['updates', 'events'], [{ event: 'events', data: {} }, { event: 'updates', data: {} }]);
    expect(thread?.untold).toBeUndefined();
  });
});
