/**
 * A local HTTP service for tests and journeys, with no import of the app (a journey loads it in
 * Node as it is): it answers JSON, allows any origin, and logs every request.
 */
export interface CountingService {
  url: string;
  /** Every request's path and query, in order. */
  calls: string[];
  close: () => Promise<void>;
}

/**
 * A local HTTP service that answers JSON and logs every request, to prove what a run calls: the
 * journeys and the runtime's tests point skills at it. Port 0: the system picks a free one.
 */
export const startCountingService = async (answer: (url: URL) => unknown): Promise<CountingService> => {
  const { createServer } = await import('node:http');
  const calls: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    calls.push(`${url.pathname}${url.search}`);
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(answer(url)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
};

/**
 * SecurityClaw with its two searches served over HTTP by `service`: the SIEM search finds nothing,
 * the archive finds the failed logins. Each call names the step it was made in (`step` = steps run before it).
 */
export const securityclawOver = <G extends { skills: Record<string, unknown> }>(graph: G, service: string): G => ({
  ...graph,
  skills: {
    ...graph.skills,
    search_events: { type: 'http', access: 'read', tokens: 100, method: 'GET', timeoutMs: 5000, url: `${service}/siem?q={{args.q}}&step={{state.steps}}` },
    query_alternative_source: { type: 'http', access: 'read', tokens: 150, method: 'GET', timeoutMs: 5000, url: `${service}/archive?q={{args.q}}&step={{state.steps}}` },
  },
});

/** What the service behind `securityclawOver` answers. */
export const securityclawAnswers = (url: URL): unknown =>
  url.pathname === '/archive' ? [{ ip: '10.0.0.5', user: 'admin', event: 'login_failed', count: 42 }, { ip: '10.0.0.5', user: 'root', event: 'login_failed', count: 7 }] : [];
