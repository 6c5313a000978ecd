/**
 * The browser pages a served graph answers: the machine's own (`http://127.0.0.1:PORT` and
 * `http://localhost:PORT`, where Loopscope's debugger runs), never a page of another origin. A
 * LangGraph server's default CORS answer is `*`, and it reads a `text/plain` body as JSON, so any
 * web page could otherwise start runs and edit threads on it without even a preflight.
 */
export const LOCAL_PAGE = /^http:\/\/(127\.0\.0\.1|localhost)(:[0-9]{1,5})?$/;

/** Whether a request's `Origin` is one of the machine's own pages; a request with none (a script, the SDK in Node) is not a page's. */
export const fromLocalPageOrNone = (origin: string | null): boolean => origin === null || LOCAL_PAGE.test(origin);

/** Where the project's request check is (`localPagesOnly.ts`, bundled by export.ts). */
export const LOCAL_PAGES_MODULE = 'src/local-pages-only.js';

/**
 * The `http` and `auth` settings of a langgraph.json (langgraph-api 1.5.1 reads `http.cors` into
 * hono's cors with `allow_origin_regex` as the allowed origins, and loads `auth.path` to check every
 * request): browsers allow the machine's own pages only, and a request from any other page is
 * refused before it reaches a run or a thread. `prefix` is where the project's `src/` is.
 */
export const localPagesOnlyConfig = (prefix = '.') => ({
  http: { cors: { allow_origin_regex: LOCAL_PAGE.source } },
  auth: { path: `${prefix}/${LOCAL_PAGES_MODULE}:auth`, disable_studio_auth: true },
});
