import { describe, expect, it } from 'vitest';
import { expandVariables, McpConfig, variablesOf } from '../graph/mcpServers.ts';
import { parseGraph, parseWith } from '../graph/parse.ts';
import { McpSkill } from '../graph/skills.ts';
import { accessOfTool, argsProblems, createMcpSkill, McpFailure, recordsOfAnswer, stricterAccess, type McpConnection, type McpConnector, type McpTool } from './mcp.ts';

const WRITE_FILE: McpTool = {
  name: 'write_file', description: 'Write a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'], additionalProperties: false, $schema: 'http://json-schema.org/draft-07/schema#' },
  annotations: { readOnlyHint: false, destructiveHint: true },
};
const READ_FILE: McpTool = { name: 'read_file', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }, annotations: { readOnlyHint: true } };

/** A connector to one server with these tools, answering each call with `answer`, counting calls. */
const fakeServer = (tools: McpTool[], answer: (tool: string, args: Record<string, unknown>) => Promise<unknown> | unknown = () => ({ content: [] })) => {
  const calls: { tool: string; args: Record<string, unknown> }[] = [];
  const connection: McpConnection = {
    tools: async () => tools,
    call: async (tool, args) => {
      calls.push({ tool, args });
      return (await answer(tool, args)) as never;
    },
  };
  const connector: McpConnector = { connect: async (server) => (server === 'files' ? connection : Promise.reject(new McpFailure('error', `there is no MCP server "${server}"`))) };
  return { calls, connector };
};

const skill = (tool: string, extra: Record<string, unknown> = {}) => createMcpSkill(tool, McpSkill.parse({ type: 'mcp', server: 'files', tool, ...extra }));
const context = (mcp?: McpConnector) => ({ attempt: 1, state: {}, seed: 1, mcp });

describe('the mcp skill in a graph file', () => {
  const graph = (skills: Record<string, unknown>) => ({ format: 'loopscope/graph', version: 1, name: 'g', entry: 'a', nodes: [{ id: 'a', kind: 'respond', position: { x: 0, y: 0 } }], edges: [], skills });

  it('names a server and a tool, with a 30 s time limit by default', () => {
    const parsed = parseGraph(graph({ read: { type: 'mcp', server: 'files', tool: 'read_text_file' } }));
    expect(parsed.ok && parsed.value.skills.read).toEqual({ type: 'mcp', server: 'files', tool: 'read_text_file', access: 'read', timeoutMs: 30000 });
  });

  it('refuses a skill that tries to define the server itself (a command, a URL), naming the path', () => {
    const parsed = parseGraph(graph({ evil: { type: 'mcp', server: 'files', tool: 'x', command: 'rm', args: ['-rf', '/'], url: 'http://attacker.example' } }));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toEqual([
      { path: 'skills.evil.command', message: 'unknown key "command" is not allowed here' },
      { path: 'skills.evil.args', message: 'unknown key "args" is not allowed here' },
      { path: 'skills.evil.url', message: 'unknown key "url" is not allowed here' },
    ]);
  });

  it('needs a server and a tool name', () => {
    const parsed = parseGraph(graph({ read: { type: 'mcp', server: '', tool: 'x' } }));
    expect(!parsed.ok && parsed.problems).toEqual([{ path: 'skills.read.server', message: 'must not be empty' }]);
  });
});

describe('.mcp.json', () => {
  it('takes stdio and URL servers, and keys other clients add', () => {
    const parsed = parseWith(McpConfig, { mcpServers: { files: { command: 'npx', args: ['@modelcontextprotocol/server-filesystem', './data'], disabled: false }, issues: { type: 'http', url: 'http://127.0.0.1:3001/mcp' } } });
    expect(parsed.ok).toBe(true);
  });

  it('refuses a server that is neither, and an SSE server, naming the path', () => {
    const parsed = parseWith(McpConfig, { mcpServers: { old: { type: 'sse', url: 'http://x/sse' }, empty: {} } });
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems.map((problem) => problem.path)).toEqual(['mcpServers.old.type', 'mcpServers.empty.command']);
  });

  it('reads ${NAME} from the environment, with a default after :-', () => {
    expect(expandVariables('Bearer ${TOKEN}', { TOKEN: 't' })).toEqual({ text: 'Bearer t', missing: [] });
    expect(expandVariables('${HOST:-localhost}:${PORT}', {})).toEqual({ text: 'localhost:', missing: ['PORT'] });
    expect(variablesOf({ command: 'gh-mcp', args: ['--org', '${ORG:-acme}'], env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', LEVEL: 'debug' } })).toEqual(['GITHUB_TOKEN']);
    expect(variablesOf({ url: 'https://${HOST}/mcp', headers: { authorization: 'Bearer ${API_TOKEN}' } })).toEqual(['HOST', 'API_TOKEN']);
  });
});

describe('access from annotations', () => {
  it('readOnlyHint true is read; anything else, no annotations included, is write', () => {
    expect(accessOfTool({ annotations: { readOnlyHint: true } })).toBe('read');
    expect(accessOfTool({ annotations: { readOnlyHint: false } })).toBe('write');
    expect(accessOfTool({ annotations: { destructiveHint: false } })).toBe('write');
    expect(accessOfTool({})).toBe('write');
  });

  it('a skill may declare stricter access, never looser', async () => {
    const { connector } = fakeServer([READ_FILE, WRITE_FILE]);
    expect(await skill('read_file').learnAccess?.(context(connector))).toBe('read');
    expect(await skill('read_file', { access: 'exec' }).learnAccess?.(context(connector))).toBe('exec');
    expect(await skill('write_file', { access: 'read' }).learnAccess?.(context(connector))).toBe('write');
    expect(stricterAccess('write', 'exec')).toBe('exec');
  });

  it('a tool the server does not have, or a server that is not there, is an error naming it', async () => {
    const { connector } = fakeServer([READ_FILE]);
    expect(await skill('delete_everything').learnAccess?.(context(connector))).toMatchObject({ outcome: 'error', error: 'the MCP server "files" has no tool "delete_everything" (it has: read_file)' });
    expect(await createMcpSkill('x', McpSkill.parse({ type: 'mcp', server: 'nope', tool: 'x' })).learnAccess?.(context(connector))).toMatchObject({ outcome: 'error', error: 'there is no MCP server "nope"' });
    expect(await skill('read_file').learnAccess?.(context())).toMatchObject({ outcome: 'error', error: 'the MCP skill read_file needs a connection to the server "files", and this run has none' });
  });
});

describe('args against the input schema', () => {
  it('names each path that does not fit, and nothing is sent', async () => {
    expect(argsProblems(WRITE_FILE.inputSchema, { path: 3 })).toEqual(['args.content: required', 'args.path: type "number" is invalid. Expected "string".']);
    expect(argsProblems(WRITE_FILE.inputSchema, { path: 'a', content: 'b', mode: 'x' })).toEqual(['args.mode: the tool takes no such argument']);
    expect(argsProblems({ type: 'object', properties: { edits: { type: 'array', items: { type: 'object', properties: { oldText: { type: 'string' } } } } } }, { edits: [{ oldText: 1 }] }))
      .toEqual(['args.edits[0].oldText: type "number" is invalid. Expected "string".']);
    expect(argsProblems(WRITE_FILE.inputSchema, { path: 'a', content: 'b' })).toEqual([]);
    const { calls, connector } = fakeServer([WRITE_FILE]);
    expect(await skill('write_file').call({ path: 3 }, context(connector))).toMatchObject({ outcome: 'parse_error', error: 'the args do not fit write_file\'s input schema: args.content: required; args.path: type "number" is invalid. Expected "string".' });
    expect(calls).toEqual([]);
  });
});

describe('answers as records', () => {
  it('structuredContent first: an array is the records, an object one record', () => {
    expect(recordsOfAnswer({ structuredContent: [{ a: 1 }, { a: 2 }], content: [{ type: 'text', text: 'ignored' }] })).toEqual([{ a: 1 }, { a: 2 }]);
    expect(recordsOfAnswer({ structuredContent: { content: 'hello' } })).toEqual([{ content: 'hello' }]);
  });

  it('else the text content, parsed as JSON when it is JSON; other content as it came', () => {
    expect(recordsOfAnswer({ content: [{ type: 'text', text: '[{"n":1},{"n":2}]' }] })).toEqual([{ n: 1 }, { n: 2 }]);
    expect(recordsOfAnswer({ content: [{ type: 'text', text: '{"n":1}' }] })).toEqual([{ n: 1 }]);
    expect(recordsOfAnswer({ content: [{ type: 'text', text: 'plain words' }, { type: 'image', mimeType: 'image/png', data: 'AAAA' }] })).toEqual([{ text: 'plain words' }, { type: 'image', mimeType: 'image/png', data: 'AAAA' }]);
  });

  it('an empty array, no content or blank text is empty', async () => {
    expect(recordsOfAnswer({ structuredContent: [] })).toEqual([]);
    expect(recordsOfAnswer({ content: [] })).toEqual([]);
    expect(recordsOfAnswer({})).toEqual([]);
    expect(recordsOfAnswer({ content: [{ type: 'text', text: '  ' }] })).toEqual([]);
    const { connector } = fakeServer([READ_FILE], () => ({ content: [{ type: 'text', text: '[]' }] }));
    expect(await skill('read_file').call({ path: 'a' }, context(connector))).toMatchObject({ outcome: 'empty', records: [] });
  });

  it('isError is an error with its text; a failure keeps the outcome it stands for', async () => {
    const { connector } = fakeServer([READ_FILE], (_tool, args) => {
      if (args.path === 'slow') throw new McpFailure('timeout', 'the MCP server "files" did not answer read_file within 5 ms');
      return { content: [{ type: 'text', text: 'ENOENT: no such file' }], isError: true };
    });
    expect(await skill('read_file').call({ path: 'gone' }, context(connector))).toMatchObject({ outcome: 'error', error: 'ENOENT: no such file', records: [] });
    expect(await skill('read_file').call({ path: 'slow' }, context(connector))).toMatchObject({ outcome: 'timeout', error: 'the MCP server "files" did not answer read_file within 5 ms' });
  });

  it('describes the tool to a decider: name, description, input schema', async () => {
    const { connector } = fakeServer([WRITE_FILE]);
    expect(await skill('write_file').describe?.(context(connector))).toEqual({ name: 'write_file', description: 'Write a file', inputSchema: WRITE_FILE.inputSchema });
    expect(await skill('write_file', { description: 'Write the report' }).describe?.(context())).toEqual({ name: 'write_file', description: 'Write the report' });
  });
});
