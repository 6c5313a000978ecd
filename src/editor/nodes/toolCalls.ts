/**
 * What a node's tools row says (AgentNode.tsx, canvasExtras.tsx): the MCP tools the node calls and
 * the access each call needs, in words for the row, for its tooltip and for a screen reader. Loaded
 * with the canvas's later parts, not on its first screen: the row's room is counted from the start
 * (geometry.ts, mcpToolsOf), its text is filled in a moment later.
 */
import { own, type GraphNode } from '../../graph/index.ts';
import { ACCESS_LEVELS, callAccess, isDestructive, type AccessLevel, type ToolHints } from '../../graph/mcpAccess.ts';
import { toolOfSkill } from '../../graph/skillTypes/index.ts';
import { visibleText } from '../../graph/visible.ts';
import { mcpToolsOf, type Skills } from '../geometry.ts';

/** One MCP tool a node calls, its server and tool named as shown (visibleText). */
export interface ToolCall {
  server: string;
  tool: string;
  access: AccessLevel;
  destructive: boolean;
  /** The access is from the tool's annotations as the server listed them (else the skill's declared access). */
  listed: boolean;
}

/** A server's tool, as listed in this page (network/mcpTools.ts), if it was. */
export type ListedTool = (server: string, tool: string) => ToolHints | undefined;

/** The MCP tools a node calls, each with the access it needs: a skill may declare stricter than its tool's annotations, never looser. */
export const toolCallsOf = (node: GraphNode, skills: Skills, listed: ListedTool): ToolCall[] =>
  mcpToolsOf(node, skills).flatMap((name) => {
    const skill = own(skills, name);
    const called = skill && toolOfSkill(skill);
    if (!called) return [];
    const tool = listed(called.server, called.tool);
    // Named as the row shows them: a server's or tool's name is the file's (src/graph/visible.ts).
    return [{ server: visibleText(called.server), tool: visibleText(called.tool), access: callAccess(skill.access, tool), destructive: tool !== undefined && isDestructive(tool), listed: tool !== undefined }];
  });

/** One mark of the row: an access level, and how many calls need it (the level's name for a single call). */
export interface AccessMark {
  access: AccessLevel;
  text: string;
  destructive: boolean;
}

export interface ToolsRowText {
  /** The tool's name (one call), or how many tools (several). */
  label: string;
  /** Several calls: the label is their count, which the marks say too. */
  several: boolean;
  /** `server · ` before the label when every call is to one server (shown when there is room). */
  server: string | null;
  marks: AccessMark[];
  /** What a screen reader hears: every tool, its server and its access. */
  spoken: string;
  /** The tooltip: one line a call, with where its access comes from. */
  detail: string;
}

const spokenCall = (call: ToolCall, withServer: boolean) => `${withServer ? `${call.server} ` : ''}${call.tool} ${call.access}${call.destructive ? ' destructive' : ''}`;

/**
 * The row's words for a node's calls (at least one): one call is its tool and access ("read_text_file
 * · read"); several are counted by access ("3 tools", "2 read", "1 write"), as a glance needs, the
 * tooltip and the spoken text naming each.
 */
export const toolsRowText = (calls: readonly ToolCall[]): ToolsRowText => {
  const servers = new Set(calls.map((call) => call.server));
  const server = servers.size === 1 ? calls[0].server : null;
  const single = calls.length === 1 ? calls[0] : null;
  const marks = ACCESS_LEVELS.flatMap((access): AccessMark[] => {
    const needing = calls.filter((call) => call.access === access);
    if (needing.length === 0) return [];
    return [{ access, text: single ? access : `${needing.length} ${access}`, destructive: needing.some((call) => call.destructive) }];
  });
  return {
    label: single ? single.tool : `${calls.length} tools`,
    several: !single,
    server,
    marks,
    spoken: single
      ? `calls ${single.server} ${spokenCall(single, false)}`
      : `calls ${calls.length} tools${server ? ` on ${server}` : ''}: ${calls.map((call) => spokenCall(call, !server)).join(', ')}`,
    detail: calls.map((call) => `${call.server} · ${call.tool} · ${call.access}${call.destructive ? ' · destructive' : ''} (${call.listed ? 'from its annotations' : 'declared by its skill; the run reads the annotations'})`).join('\n'),
  };
};
