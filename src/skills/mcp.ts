/**
 * A skill that calls one tool of an MCP server (SPEC §7). The skill knows what a call means: the
 * access the tool needs (from its annotations, a skill's own `access` only stricter), its args
 * checked against the tool's input schema before anything is sent, and its answer turned into
 * records. Reaching the server is not its business: a connector, injected through the context,
 * gives it a connection by server name (the command line's starts programs and speaks stdio or
 * Streamable HTTP, the page's speaks Streamable HTTP only), so nothing here needs Node.
 */
import { Validator, type OutputUnit, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import { callAccess } from '../graph/mcpAccess.ts';
import type { McpSkill } from '../graph/skills.ts';
import type { McpAnswer, McpConnection, McpTool } from '../graph/skillTypes/types.ts';
import { formatPath } from '../graph/problems.ts';
import { clampTimeout } from './net.ts';
import { outcomeOfRecords, type SkillContext, type SkillResult, type SkillRunner } from './types.ts';

// Defined with the context a runner is given (graph/skillTypes), which a definition's own runner reads too.
export type { McpAnnotations, McpAnswer, McpConnection, McpConnector, McpTool } from '../graph/skillTypes/types.ts';

/** A call that did not get an answer, with the outcome it stands for and a sentence naming the server. */
export class McpFailure extends Error {
  readonly outcome: 'error' | 'timeout' | 'permission_denied';

  constructor(outcome: McpFailure['outcome'], message: string) {
    super(message);
    this.outcome = outcome;
  }
}

export { accessOfTool, stricterAccess } from '../graph/mcpAccess.ts';

const DRAFTS: [RegExp, SchemaDraft][] = [[/draft-04/, '4'], [/draft-07/, '7'], [/2019-09/, '2019-09']];

/** The JSON Schema draft a schema declares (`$schema`), 2020-12 when it names none. */
const draftOf = (schema: Record<string, unknown>): SchemaDraft =>
  DRAFTS.find(([pattern]) => typeof schema.$schema === 'string' && pattern.test(schema.$schema))?.[1] ?? '2020-12';

/** `#/edits/0/oldText` as `args.edits[0].oldText`. */
const argsPath = (pointer: string): string => {
  const keys = pointer.replace(/^#\/?/, '').split('/').filter(Boolean)
    .map((key) => decodeURIComponent(key.replace(/~1/g, '/').replace(/~0/g, '~')))
    .map((key) => (/^\d+$/.test(key) ? Number(key) : key));
  return formatPath(['args', ...keys]);
};

/** Errors that only say an inner value failed (the inner error says how): left out when it is there. */
const WRAPPERS = new Set(['properties', 'items', 'prefixItems', 'additionalProperties', 'patternProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems', 'allOf', '$ref', 'dependentSchemas', 'contains']);

const sentenceOf = (unit: OutputUnit): string => {
  if (unit.keyword === 'required') {
    const property = /property "(.*)"/.exec(unit.error)?.[1];
    if (property !== undefined) return `${argsPath(`${unit.instanceLocation}/${property}`)}: required`;
  }
  if (unit.keyword === 'false') return `${argsPath(unit.instanceLocation)}: the tool takes no such argument`;
  return `${argsPath(unit.instanceLocation)}: ${unit.error.replace(/^Instance /, '')}`;
};

/** What is wrong with `args` for a tool of this input schema, path by path; empty when they fit. */
export const argsProblems = (inputSchema: Record<string, unknown>, args: Record<string, unknown>): string[] => {
  let units: OutputUnit[];
  try {
    units = new Validator(inputSchema as Schema, draftOf(inputSchema), false).validate(args).errors;
  } catch (error) {
    return [`the tool's input schema cannot be read: ${(error as Error).message}`];
  }
  const told = units.filter((unit) => !WRAPPERS.has(unit.keyword));
  return [...new Set((told.length > 0 ? told : units).map(sentenceOf))];
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text items of an answer's content. */
const textsOf = (content: readonly unknown[]): string[] =>
  content.flatMap((item) => (isObject(item) && item.type === 'text' && typeof item.text === 'string' ? [item.text] : []));

/** A value as records: an array is the records, an object one record, nothing none. */
const recordsOfValue = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);

const jsonOrText = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return { text };
  }
};

/**
 * The records of an answer: its `structuredContent`, or else its content, each text item parsed as
 * JSON when it is JSON (kept as `{text}` when not) and any other item (an image, a resource) as it is.
 */
export const recordsOfAnswer = (answer: McpAnswer): unknown[] => {
  if (answer.structuredContent !== undefined) return recordsOfValue(answer.structuredContent);
  return (answer.content ?? []).flatMap((item) =>
    isObject(item) && item.type === 'text' && typeof item.text === 'string' ? (item.text.trim() ? recordsOfValue(jsonOrText(item.text)) : []) : [item]);
};

/** The sentence of an `isError` answer: its text. */
const errorText = (answer: McpAnswer): string => textsOf(answer.content ?? []).join('\n').trim() || 'the tool reported an error without saying why';

/** What a decider is told of a tool: its name, description and input schema. */
export interface ToolDescription {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

/** The tool of a skill on its server, or the attempt that says why it cannot be had. */
const toolOf = async (name: string, skill: McpSkill, context: Pick<SkillContext, 'mcp'>): Promise<{ connection: McpConnection; tool: McpTool } | { failed: SkillResult }> => {
  const fail = (outcome: SkillResult['outcome'], error: string) => ({ failed: { outcome, records: [], tokens: 0, error, durationMs: 0 } });
  if (!context.mcp) return fail('error', `the MCP skill ${name} needs a connection to the server "${skill.server}", and this run has none`);
  try {
    const connection = await context.mcp.connect(skill.server);
    const tools = await connection.tools();
    const tool = tools.find((candidate) => candidate.name === skill.tool);
    if (!tool) return fail('error', `the MCP server "${skill.server}" has no tool "${skill.tool}" (it has: ${tools.map((candidate) => candidate.name).join(', ') || 'none'})`);
    return { connection, tool };
  } catch (error) {
    return fail(error instanceof McpFailure ? error.outcome : 'error', (error as Error).message);
  }
};

export const createMcpSkill = (name: string, skill: McpSkill): SkillRunner => ({
  name,
  access: skill.access,
  learnAccess: async (context) => {
    const found = await toolOf(name, skill, context);
    return 'failed' in found ? found.failed : callAccess(skill.access, found.tool);
  },
  describe: async (context) => {
    const found = await toolOf(name, skill, context);
    if ('failed' in found) return { name, ...(skill.description ? { description: skill.description } : {}) };
    return { name, description: skill.description ?? found.tool.description ?? found.tool.title, inputSchema: found.tool.inputSchema };
  },
  call: async (args, context): Promise<SkillResult> => {
    const started = Date.now();
    const tokens = skill.tokens ?? 0;
    const fail = (outcome: SkillResult['outcome'], error: string): SkillResult => ({ outcome, records: [], tokens, error, durationMs: Date.now() - started });
    const found = await toolOf(name, skill, context);
    if ('failed' in found) return { ...found.failed, tokens, durationMs: Date.now() - started };
    const problems = argsProblems(found.tool.inputSchema, args);
    if (problems.length > 0) return fail('parse_error', `the args do not fit ${skill.tool}'s input schema: ${problems.join('; ')}`);
    let answer: McpAnswer;
    try {
      answer = await found.connection.call(skill.tool, args, clampTimeout(Math.min(skill.timeoutMs, context.timeoutMs ?? Number.POSITIVE_INFINITY)));
    } catch (error) {
      return fail(error instanceof McpFailure ? error.outcome : 'error', (error as Error).message);
    }
    if (answer.isError) return fail('error', errorText(answer));
    const records = recordsOfAnswer(answer);
    return { outcome: outcomeOfRecords(records), records, tokens, durationMs: Date.now() - started };
  },
});
