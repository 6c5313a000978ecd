/**
 * An exported project's request check (bundled into its `src/local-pages-only.js`; langgraph.json
 * names it as the server's `auth`): a request a browser sends from a page of another origin is
 * refused with 403 before it reaches a run or a thread. Requests with no `Origin` (the SDK in Node,
 * curl) and from the machine's own pages go on.
 */
import { Auth, HTTPException } from '@langchain/langgraph-sdk/auth';
import { fromLocalPageOrNone } from './localPages.ts';

export const auth = new Auth().authenticate(async (request: Request) => {
  const origin = request.headers.get('origin');
  if (!fromLocalPageOrNone(origin))
    throw new HTTPException(403, { message: `a page of ${origin} cannot use this server: it answers the pages of its own machine only (http://127.0.0.1 and http://localhost, any port)` });
  return 'this machine';
});
