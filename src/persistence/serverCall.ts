/**
 * A call to the server of `loopscope open`, with the token the page was opened with: the page's
 * (folderLibrary.ts) and the save worker's (save.worker.ts), which writes a big graph's file off
 * the page's thread. With no imports, for the worker.
 */
export const callServer = async (url: string, token: string, method: string, { body, keepalive = false }: { body?: string; keepalive?: boolean } = {}, fetchImpl: typeof fetch = (...args) => fetch(...args)) => {
  const headers = { Authorization: `Bearer ${token}` };
  let response: Response;
  try {
    response = await fetchImpl(url, { method, headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' }, body, keepalive, cache: 'no-store' });
  } catch {
    throw new Error('the loopscope open server does not answer (was it stopped?)');
  }
  if (response.ok) return response;
  const said = await response.json().then((value: { error?: string }) => value.error, () => undefined);
  throw Object.assign(new Error(said ?? `the server answered ${response.status}`), { status: response.status });
};
