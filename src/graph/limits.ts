/**
 * How big and how deep untrusted input may be. Every way in (a file, a paste, a share link, the
 * autosave, an inspector field, the canvas clipboard, an imported trace) is read with these, so a
 * hostile file gets a clear refusal instead of a frozen page or an overflowing stack.
 */
export const LIMITS = {
  /** Characters of JSON text. A share link is refused once it inflates past this too. */
  textChars: 8_000_000,
  /** Nesting of objects and arrays, counted from the document itself (depth 1). */
  depth: 64,
  /** Items of one array, or keys of one object: as many as the edges a graph may have. */
  items: 20_000,
  /**
   * Far past any agent graph. The canvas opens this many without stalling the page: it draws
   * only what is in view, and the file is read off the main thread (bench: 5,000 nodes).
   */
  nodes: 10_000,
  /** Two edges a node, as a dense graph has. */
  edges: 20_000,
  /** Entries of one mock script; each is one attempt. */
  scriptEntries: 1_000,
  /** Records of one mock answer. */
  records: 1_000,
  plans: 1_000,
  actionsPerPlan: 100,
  rules: 200,
  scenarios: 1_000,
  /** Nesting of `all` / `any` / `not` in one edge condition. */
  conditionDepth: 16,
  maxSteps: 10_000,
  maxRounds: 1_000,
  /** A node placed further out than this would not draw. */
  coordinate: 1_000_000,
} as const;

/**
 * An imported trace is the person's own run record, read off the main thread: far longer than any
 * graph file (a 100,000-step run exported is about 100 MB of JSON, 170 MB pretty-printed), so its
 * size limits are its own. Nesting, keys and every other list keep the limits of `LIMITS`.
 */
export const TRACE_LIMITS = {
  /** Characters of a trace's JSON text: well past 100,000 steps, well within what a page can hold. */
  textChars: 200_000_000,
  depth: LIMITS.depth,
  items: LIMITS.items,
  /** The `steps` list of one trace: ten runs of `LIMITS.maxSteps`, continued one after another. */
  lists: { steps: 1_000_000 },
} as const;

/** Time limits of skill calls, applied however large a file asks them to be. */
export const SKILL_LIMITS = {
  /** A skill call's whole answer (headers and body) must arrive within this. */
  maxTimeoutMs: 10 * 60_000,
  /** The wait before one retry, however the backoff doubles. */
  maxBackoffMs: 30_000,
  /** Bytes of one answer's body. */
  maxAnswerBytes: 16_000_000,
} as const;
