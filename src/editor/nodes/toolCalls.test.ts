import { describe, expect, it } from 'vitest';
import type { GraphFile } from '../../graph/index.ts';
import { findTemplate } from '../../graph/templates/index.ts';
import { toolCallsOf, toolsRowText, type ListedTool } from './toolCalls.ts';

const files = () => findTemplate('files-agent')!.graph();
const node = (graph: GraphFile, id: string) => graph.nodes.find((one) => one.id === id)!;
const nothingListed: ListedTool = () => undefined;
/** The filesystem server's annotations (@modelcontextprotocol/server-filesystem): reads are read-only, write_file destructive. */
const filesystem: ListedTool = (server, tool) =>
  server !== 'files' ? undefined
  : tool === 'write_file' ? { annotations: { readOnlyHint: false, destructiveHint: true } }
  : { annotations: { readOnlyHint: true } };

describe('toolCallsOf', () => {
  it('gives the MCP tools a node calls, with the access its skills declare while the server\'s tools are not listed', () => {
    const graph = files();
    expect(toolCallsOf(node(graph, 'write'), graph.skills, nothingListed)).toEqual([
      { server: 'files', tool: 'read_text_file', access: 'read', destructive: false, listed: false },
      { server: 'files', tool: 'write_file', access: 'write', destructive: false, listed: false },
    ]);
    // Reason plans write_file for Act: it calls no tool itself. The decider is no tool either.
    expect(toolCallsOf(node(graph, 'think'), graph.skills, nothingListed)).toEqual([]);
    expect(toolCallsOf(node(graph, 'report'), graph.skills, nothingListed)).toEqual([]);
  });

  it('takes the access from the tool\'s annotations once listed: readOnlyHint true is read, anything else write, destructive marked', () => {
    const graph = files();
    // write_file declares read (the default) here: its annotations make it a write.
    const skills = { ...graph.skills, write_file: { ...graph.skills.write_file, access: 'read' as const } };
    expect(toolCallsOf(node(graph, 'write'), skills, nothingListed).map((call) => call.access)).toEqual(['read', 'read']);
    expect(toolCallsOf(node(graph, 'write'), skills, filesystem)).toEqual([
      { server: 'files', tool: 'read_text_file', access: 'read', destructive: false, listed: true },
      { server: 'files', tool: 'write_file', access: 'write', destructive: true, listed: true },
    ]);
    // No annotations at all: a write.
    expect(toolCallsOf(node(graph, 'check'), skills, () => ({})).map((call) => call.access)).toEqual(['write']);
  });

  it('keeps a skill\'s declared access when it is stricter than the annotations, never a looser one', () => {
    const graph = files();
    const skills = { ...graph.skills, read_text_file: { ...graph.skills.read_text_file, access: 'exec' as const } };
    expect(toolCallsOf(node(graph, 'check'), skills, filesystem).map((call) => call.access)).toEqual(['exec']);
    expect(toolCallsOf(node(graph, 'check'), { ...graph.skills, read_text_file: { ...graph.skills.read_text_file, access: 'write' as const } }, filesystem).map((call) => call.access)).toEqual(['write']);
  });
});

describe('toolsRowText', () => {
  it('says one call as its tool and access, with its server for the tooltip and a screen reader', () => {
    const graph = files();
    const text = toolsRowText(toolCallsOf(node(graph, 'check'), graph.skills, filesystem));
    expect(text).toMatchObject({ label: 'read_text_file', several: false, server: 'files', marks: [{ access: 'read', text: 'read', destructive: false }] });
    expect(text.spoken).toBe('calls files read_text_file read');
    expect(text.detail).toBe('files · read_text_file · read (from its annotations)');
  });

  it('counts several calls by access, a destructive write marked, and names each when spoken', () => {
    const graph = files();
    const text = toolsRowText(toolCallsOf(node(graph, 'write'), graph.skills, filesystem));
    expect(text).toMatchObject({ label: '2 tools', several: true, server: 'files' });
    expect(text.marks).toEqual([{ access: 'read', text: '1 read', destructive: false }, { access: 'write', text: '1 write', destructive: true }]);
    expect(text.spoken).toBe('calls 2 tools on files: read_text_file read, write_file write destructive');
    expect(toolsRowText(toolCallsOf(node(graph, 'gather'), graph.skills, nothingListed)).marks).toEqual([{ access: 'read', text: '3 read', destructive: false }]);
  });

  it('names each call\'s server when they are on several', () => {
    const calls = [
      { server: 'files', tool: 'read_text_file', access: 'read' as const, destructive: false, listed: false },
      { server: 'issues', tool: 'create_issue', access: 'write' as const, destructive: false, listed: false },
    ];
    expect(toolsRowText(calls)).toMatchObject({ server: null, spoken: 'calls 2 tools: files read_text_file read, issues create_issue write' });
  });
});
