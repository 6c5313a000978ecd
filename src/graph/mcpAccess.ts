/**
 * The access a call of an MCP tool needs (SPEC §7), defined once for the runtime, the inspector and
 * the canvas: from the tool's annotations (`readOnlyHint: true` → read, anything else → write), a
 * skill's own `access` only stricter. Free of the graph's schemas, so the canvas can use it without
 * loading them.
 */

/** Access levels, least to most. */
export const ACCESS_LEVELS = ['read', 'write', 'exec'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** What a server says of a tool (MCP's annotations): hints, never trusted to loosen anything. */
export interface ToolHints {
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

/** What a person is told wherever a tool's access is shown (a consent, the inspector): it is the server's word, never checked. */
export const ANNOTATIONS_TRUSTED = 'A tool’s access comes from its server’s own annotations (readOnlyHint), or from the skill where that is stricter: Loopscope cannot check them, and a tool marked read-only may still write.';

/** `readOnlyHint: true` → read; anything else (no annotations included) → write. */
export const accessOfTool = (tool: ToolHints): AccessLevel => (tool.annotations?.readOnlyHint === true ? 'read' : 'write');

/** The stricter of two access levels. */
export const stricterAccess = (a: AccessLevel, b: AccessLevel): AccessLevel => (ACCESS_LEVELS.indexOf(a) >= ACCESS_LEVELS.indexOf(b) ? a : b);

/** A tool that writes and says it may destroy what is there. */
export const isDestructive = (tool: ToolHints): boolean => tool.annotations?.destructiveHint === true && accessOfTool(tool) !== 'read';

/**
 * The access each call of an mcp skill needs: with its tool as the server lists it, the stricter of
 * the tool's annotations and the skill's own `access`; without, what the skill declares (the run
 * still checks the annotations before every call).
 */
export const callAccess = (declared: AccessLevel, listed: ToolHints | undefined): AccessLevel => (listed ? stricterAccess(accessOfTool(listed), declared) : declared);
