/**
 * MCP skills against real servers: @modelcontextprotocol/server-filesystem and a fixture server
 * made with the SDK (src/skills/fixtures), started from node_modules by the node connector and
 * stopped by PID. After each test the process list holds none of its servers.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpConfig } from '../graph/mcpServers.ts';
import { parseGraph } from '../graph/parse.ts';
import type { GraphFile } from '../graph/schema.ts';
import { createNodeConnector, type NodeConnector } from '../skills/mcpNode.ts';
import { filesAgentCopy, serversFor, testServers } from '../skills/mcpTesting.ts';
import { runGraph, scenarioFromRun, runScenario, createController } from './index.ts';
import { executedNodes } from './testing.ts';
import { Trace } from './trace.ts';

let dir: string;
let connector: NodeConnector | undefined;

const connect = (config: McpConfig = testServers(dir)) => (connector = createNodeConnector(config, { dir }));

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loopscope-mcp-run-'));
  await mkdir(join(dir, 'data'));
  await writeFile(join(dir, 'data', 'notes.txt'), 'the nightly build fails: left-pad is missing\n');
});

afterEach(async () => {
  await connector?.close();
  connector = undefined;
  // No server of this test is left behind.
  expect(serversFor(dir)).toEqual([]);
  await rm(dir, { recursive: true, force: true });
});

/** A graph with one act node running `action` (a plan of one action), in `mode`. */
const actGraph = (skills: Record<string, unknown>, action: { skill: string; args: Record<string, unknown> }, mode = 'read-only', retry: Record<string, unknown> = {}): GraphFile => {
  const parsed = parseGraph({
    format: 'loopscope/graph', version: 1, name: 'mcp', entry: 'act', permissions: { mode }, skills,
    nodes: [
      { id: 'act', kind: 'act', position: { x: 0, y: 0 }, config: { skill: action.skill, args: action.args, retry } },
      { id: 'done', kind: 'respond', position: { x: 200, y: 0 } },
      { id: 'failed', kind: 'stop', position: { x: 200, y: 200 }, config: { reason: 'act_failed' } },
    ],
    edges: [
      { id: 'e1', source: 'act', target: 'done', when: { outcome: 'ok' } },
      { id: 'e2', source: 'act', target: 'failed', when: 'otherwise' },
    ],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
};

const files = (tool: string, extra: Record<string, unknown> = {}) => ({ type: 'mcp', server: 'files', tool, ...extra });
const fixture = (tool: string, extra: Record<string, unknown> = {}) => ({ type: 'mcp', server: 'fixture', tool, ...extra });

describe('mcp skills against real servers', () => {
  it('a read tool answers records, and its attempt shows the args, the access and the answer', async () => {
    const trace = await runGraph(actGraph({ read: files('read_text_file') }, { skill: 'read', args: { path: 'notes.txt' } }), { mcp: connect() });
    expect(trace.stopReason).toBe('completed');
    expect(trace.steps[0].attempts).toEqual([expect.objectContaining({
      skill: 'read', outcome: 'ok', records: 1, args: { path: 'notes.txt' }, access: 'read',
      returned: [{ content: 'the nightly build fails: left-pad is missing\n' }],
    })]);
    expect(Trace.safeParse(trace).success).toBe(true);
    expect(connector?.pids()).toHaveLength(1);
  });

  it('a write tool is permission_denied in read-only mode and never reaches the server: the file is untouched', async () => {
    const graph = actGraph({ write: files('write_file'), touch: fixture('touch') }, { skill: 'write', args: { path: 'notes.txt', content: 'overwritten' } });
    const trace = await runGraph(graph, { mcp: connect() });
    expect(trace.stopReason).toBe('act_failed');
    expect(trace.steps[0].attempts).toEqual([expect.objectContaining({ outcome: 'permission_denied', access: 'write', error: 'read-only mode does not allow write access', args: { path: 'notes.txt', content: 'overwritten' } })]);
    expect(trace.steps[0].attempts[0].returned).toBeUndefined();
    expect(await readFile(join(dir, 'data', 'notes.txt'), 'utf8')).toBe('the nightly build fails: left-pad is missing\n');
    // A tool with no annotations at all needs write access too; the fixture would have logged the call.
    const touched = await runGraph({ ...graph, nodes: graph.nodes.map((node) => (node.id === 'act' ? { ...node, config: { ...node.config, skill: 'touch', args: {} } } : node)) as GraphFile['nodes'] }, { mcp: connector });
    expect(touched.steps[0].attempts[0]).toMatchObject({ outcome: 'permission_denied', access: 'write' });
    expect(existsSync(join(dir, 'touched.log'))).toBe(false);
  });

  it('in workspace mode the write reaches the server and the file is written', async () => {
    const trace = await runGraph(actGraph({ write: files('write_file') }, { skill: 'write', args: { path: 'report.md', content: '# Report\n' } }, 'workspace'), { mcp: connect(), granted: 'workspace' });
    expect(trace.stopReason).toBe('completed');
    expect(trace.steps[0].attempts[0]).toMatchObject({ outcome: 'ok', access: 'write' });
    expect(await readFile(join(dir, 'data', 'report.md'), 'utf8')).toBe('# Report\n');
  });

  it('a skill may declare stricter access than the annotations: a read tool declared exec is denied in workspace mode', async () => {
    const trace = await runGraph(actGraph({ read: files('read_text_file', { access: 'exec' }) }, { skill: 'read', args: { path: 'notes.txt' } }, 'workspace'), { mcp: connect(), granted: 'full' });
    expect(trace.steps[0].attempts[0]).toMatchObject({ outcome: 'permission_denied', access: 'exec' });
  });

  it('args that do not fit the input schema are a parse_error naming the path, retried in place, never sent', async () => {
    const trace = await runGraph(actGraph({ write: files('write_file') }, { skill: 'write', args: { path: 'report.md', contents: 'typo' } }, 'workspace'), { mcp: connect(), granted: 'workspace' });
    expect(trace.steps[0].attempts.map((attempt) => attempt.outcome)).toEqual(['parse_error', 'parse_error', 'parse_error']);
    expect(trace.steps[0].attempts[0].error).toBe('the args do not fit write_file\'s input schema: args.content: required');
    expect(trace.steps[0].attempts[0].retry).toBe('parse_error is in retryOn (attempt 1 of 3): retrying in place');
    expect(existsSync(join(dir, 'data', 'report.md'))).toBe(false);
  });

  it('isError is an error with the server\'s text', async () => {
    const missing = await runGraph(actGraph({ read: files('read_text_file') }, { skill: 'read', args: { path: 'nope.txt' } }), { mcp: connect() });
    expect(missing.steps[0].attempts[0]).toMatchObject({ outcome: 'error', error: expect.stringContaining('ENOENT') });
    const refused = await runGraph(actGraph({ fail: fixture('fail') }, { skill: 'fail', args: {} }), { mcp: connector });
    expect(refused.steps[0].attempts[0]).toMatchObject({ outcome: 'error', error: 'the fixture refuses' });
  });

  it('structuredContent, JSON text and no content become records, or empty', async () => {
    const echo = await runGraph(actGraph({ echo: fixture('echo') }, { skill: 'echo', args: { text: 'hi', times: 2 } }), { mcp: connect() });
    expect(echo.steps[0].attempts[0].returned).toEqual([{ text: 'hi', times: 2 }]);
    const list = await runGraph(actGraph({ list: fixture('list') }, { skill: 'list', args: {} }), { mcp: connector });
    expect(list.steps[0].attempts[0]).toMatchObject({ outcome: 'ok', records: 2, returned: [{ n: 1 }, { n: 2 }] });
    const nothing = await runGraph(actGraph({ nothing: fixture('nothing') }, { skill: 'nothing', args: {} }), { mcp: connector });
    expect(nothing.steps[0].outcome).toBe('empty');
  });

  it('a server that never answers is a timeout, retried in place, and is still stopped at the end', async () => {
    const trace = await runGraph(actGraph({ hang: fixture('hang', { timeoutMs: 150 }) }, { skill: 'hang', args: {} }, 'read-only', { maxAttempts: 2 }), { mcp: connect() });
    expect(trace.steps[0].attempts.map((attempt) => [attempt.outcome, attempt.error])).toEqual([
      ['timeout', 'the MCP server "fixture" did not answer hang within 150 ms'],
      ['timeout', 'the MCP server "fixture" did not answer hang within 150 ms'],
    ]);
    expect(serversFor(dir)).toHaveLength(1);
  });

  it('a server that dies is an error naming the server and its last line on stderr; the next use starts it again', async () => {
    const trace = await runGraph(actGraph({ crash: fixture('crash') }, { skill: 'crash', args: {} }), { mcp: connect() });
    expect(trace.steps[0].attempts[0]).toMatchObject({ outcome: 'error', error: 'the MCP server "fixture" stopped while calling crash; its last words on stderr: fixture: about to crash' });
    const again = await runGraph(actGraph({ echo: fixture('echo') }, { skill: 'echo', args: { text: 'back' } }), { mcp: connector });
    expect(again.steps[0].attempts[0]).toMatchObject({ outcome: 'ok' });
  });

  it('a server that cannot start, or a name .mcp.json does not define, is an error naming it', async () => {
    const mcp = connect({ mcpServers: { ...testServers(dir).mcpServers, broken: { command: join(dir, 'no-such-server') } } });
    const unknown = await runGraph(actGraph({ x: { type: 'mcp', server: 'github', tool: 'create_issue' } }, { skill: 'x', args: {} }), { mcp });
    expect(unknown.steps[0].attempts[0]).toMatchObject({ outcome: 'error', error: 'there is no MCP server "github" in .mcp.json (it defines files, fixture, broken)' });
    const broken = await runGraph(actGraph({ x: { type: 'mcp', server: 'broken', tool: 'x' } }, { skill: 'x', args: {} }), { mcp });
    expect(broken.steps[0].attempts[0]).toMatchObject({ outcome: 'error', error: `the MCP server "broken" could not be started: there is no program "${join(dir, 'no-such-server')}" (.mcp.json)` });
    const none = await runGraph(actGraph({ x: files('read_text_file') }, { skill: 'x', args: { path: 'notes.txt' } }));
    expect(none.steps[0].attempts[0]).toMatchObject({ outcome: 'error', error: 'the MCP skill x needs a connection to the server "files", and this run has none' });
  });
});

describe('the template "Graph Engineer on your files" against the filesystem server', () => {
  let copy: Awaited<ReturnType<typeof filesAgentCopy>>;
  beforeEach(async () => {
    copy = await filesAgentCopy();
  });
  afterEach(async () => {
    await copy.remove();
  });

  const template = async () => {
    const parsed = parseGraph(JSON.parse(await readFile(join(copy.dir, 'graph.json'), 'utf8')));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    return parsed.value;
  };
  const connectCopy = () => (connector = createNodeConnector(testServers(copy.dir), { dir: copy.dir }));

  it('reads and searches, write_file is denied inside an iteration, approved once, then written', async () => {
    const controller = createController(await template(), { mcp: connectCopy(), compact: true });
    await controller.run();
    expect(controller.session.pending).toMatchObject({ node: 'ask', skill: 'write_file', reason: 'write_file was refused by the permission check (read-only)' });
    expect(existsSync(join(copy.dir, 'data', 'report.md'))).toBe(false);
    controller.decide('approved');
    await controller.run();
    const trace = controller.trace;
    expect(trace.stopReason).toBe('completed');
    expect(executedNodes(trace)).toEqual(['gather', 'think', 'write', 'ask', 'write', 'check', 'report']);
    const [gather, , denied, , written, check] = trace.steps;
    expect(gather.iterations?.map((iteration) => [iteration.tool ?? 'done', iteration.outcome])).toEqual([
      ['list_directory', 'ok'], ['search_files', 'ok'], ['read_text_file', 'ok'], ['read_text_file', 'ok'], ['done', 'done'],
    ]);
    expect(gather.attempts.find((attempt) => attempt.skill === 'read_text_file')?.returned?.[0]).toMatchObject({ content: expect.stringContaining("cannot find module 'left-pad'") });
    expect(denied.iterations?.[0].attempts.at(-1)).toMatchObject({ skill: 'write_file', outcome: 'permission_denied', access: 'write', iteration: 1 });
    expect(written.iterations?.[0].attempts.at(-1)).toMatchObject({ skill: 'write_file', outcome: 'ok', access: 'write' });
    expect(check.attempts.find((attempt) => attempt.skill === 'read_text_file')?.returned?.[0]).toMatchObject({ content: expect.stringContaining('# Nightly build') });
    expect(await readFile(join(copy.dir, 'data', 'report.md'), 'utf8')).toContain("cannot find module 'left-pad'");
    expect(await readFile(join(copy.dir, 'data', 'notes', '2026-11-30-incident.md'), 'utf8')).toContain('left-pad');
  });

  it('a person who denies keeps the file unwritten', async () => {
    const controller = createController(await template(), { mcp: connectCopy(), compact: true });
    await controller.run();
    controller.decide('denied');
    await controller.run();
    expect(controller.trace.stopReason).toBe('act_failed');
    expect(existsSync(join(copy.dir, 'data', 'report.md'))).toBe(false);
  });

  it('a decider whose args do not fit a tool\'s input schema is asked again in place, and the tool is called with the args that fit', async () => {
    const graph = await template();
    const scout = graph.skills.scout;
    if (scout.type !== 'mock') throw new Error('scout is a mock');
    scout.script = [
      { outcome: 'ok', reply: { tool: 'read_text_file', args: { file: 'notes/2026-11-30-incident.md' } } },
      { outcome: 'ok', reply: { tool: 'read_text_file', args: { path: 'notes/2026-11-30-incident.md' } } },
      { outcome: 'ok', reply: { done: true, output: {} } },
    ];
    const trace = await runGraph(graph, { mcp: connectCopy(), compact: true });
    const gather = trace.steps[0];
    expect(gather.iterations?.[0].attempts.map((attempt) => [attempt.skill, attempt.outcome])).toEqual([['scout', 'parse_error'], ['scout', 'ok'], ['read_text_file', 'ok']]);
    expect(gather.iterations?.[0].attempts[0].error).toBe('not a decider reply: reply: the args do not fit read_text_file\'s input schema (args.path: required)');
    expect(gather.given).toBeDefined();
  });

  it('an llm decider whose args do not fit is asked again in place and told why: its next prompt names the path and quotes its answer', async () => {
    const graph = await template();
    graph.skills.scout = { type: 'llm', access: 'read', baseUrl: 'http://model.test/v1', model: 'tiny', timeoutMs: 5000 };
    const prompts: string[] = [];
    const answers = ['{"tool": "read_text_file", "args": {"file": "todo.txt"}}', '{"tool": "read_text_file", "args": {"path": "todo.txt"}}', '{"done": true, "output": {}}'];
    const model = (async (_url: string, init: RequestInit) => {
      prompts.push((JSON.parse(String(init.body)).messages as { content: string }[])[0].content);
      return new Response(JSON.stringify({ choices: [{ message: { content: answers[prompts.length - 1] } }], usage: { total_tokens: 10 } }));
    }) as unknown as typeof fetch;
    const trace = await runGraph(graph, { mcp: connectCopy(), fetch: model, compact: true });
    const gather = trace.steps[0];
    expect(gather.iterations?.[0].attempts.map((attempt) => [attempt.skill, attempt.n, attempt.outcome])).toEqual([['scout', 1, 'parse_error'], ['scout', 2, 'ok'], ['read_text_file', 1, 'ok']]);
    expect(prompts[0]).not.toContain('refused');
    expect(prompts[1]).toContain('Your previous answer was refused (not a decider reply: reply: the args do not fit read_text_file\'s input schema (args.path: required)).');
    expect(prompts[1]).toContain(`You answered: ${answers[0]}`);
    expect(prompts[1].startsWith(prompts[0])).toBe(true);
    // The next iteration's first ask is told nothing of a refusal that was corrected.
    expect(prompts[2]).not.toContain('refused');
  });

  it('an llm decider with toolCalls gets the MCP tools as native tools, and its tool_calls answer is the reply', async () => {
    const graph = await template();
    graph.skills.scout = { type: 'llm', access: 'read', baseUrl: 'http://model.test/v1', model: 'tiny', timeoutMs: 5000, toolCalls: true };
    const bodies: Record<string, unknown>[] = [];
    const answers = [
      { choices: [{ message: { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_text_file', arguments: '{"path":"todo.txt"}' } }] } }], usage: { total_tokens: 30 } },
      { choices: [{ message: { content: '{"done": true, "output": {}}' } }], usage: { total_tokens: 10 } },
    ];
    const model = (async (_url: string, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)));
      return new Response(JSON.stringify(answers[bodies.length - 1]));
    }) as unknown as typeof fetch;
    const trace = await runGraph(graph, { mcp: connectCopy(), fetch: model, compact: true });
    const tools = bodies[0].tools as { type: string; function: { name: string; description?: string; parameters: { properties: Record<string, unknown> } } }[];
    expect(tools.map((tool) => tool.function.name)).toEqual(['list_directory', 'search_files', 'read_text_file']);
    expect(tools[2]).toMatchObject({ type: 'function', function: { name: 'read_text_file', description: 'Read one file of ./data', parameters: { type: 'object', properties: { path: { type: 'string' } } } } });
    const prompt = (bodies[0].messages as { content: string }[])[0].content;
    expect(prompt).toContain('"name":"search_files"');
    expect(prompt).toContain('"inputSchema"');
    const gather = trace.steps[0];
    expect(gather.iterations?.[0]).toMatchObject({ tool: 'read_text_file', args: { path: 'todo.txt' }, outcome: 'ok' });
    expect(gather.iterations?.[0].attempts[1].returned?.[0]).toMatchObject({ content: expect.stringContaining('report.md') });
  });

  it('Save as scenario turns each MCP answer into a mock script, and the scenario replays with no server', async () => {
    const graph = await template();
    // Its approval is the file's `auto`: the write needs the person's grant as well.
    const trace = await runGraph(graph, { mcp: connectCopy(), compact: true, granted: 'workspace' });
    expect(trace.stopReason).toBe('completed');
    await connector?.close();
    const { scenario } = scenarioFromRun(graph, trace);
    expect(scenario.skills?.write_file).toEqual({ type: 'mock', access: 'write', script: [expect.objectContaining({ outcome: 'ok' })] });
    expect(scenario.skills?.read_text_file).toMatchObject({ type: 'mock', access: 'read' });
    const replay = await runScenario(graph, scenario);
    expect(replay.failures).toEqual([]);
    expect(connector?.pids()).toEqual([]);
  });
});
