/**
 * An mcp skill's settings (loaded when one is opened): the server name and tool, the address this
 * browser reaches the server at (never in the graph; under `loopscope open` the folder's
 * `.mcp.json` says where it is), and the server's tools to pick from, each with its description and
 * what its annotations say (read-only, or a write; destructive).
 */
import { useId, useState } from 'react';
import type { McpSkill } from '../../graph/skills.ts';
import { accessOfTool, ANNOTATIONS_TRUSTED, isDestructive, stricterAccess } from '../../graph/mcpAccess.ts';
import type { McpTool } from '../../skills/mcp.ts';
import { useApp } from '../../store/index.ts';
import { badServerUrl, serverUrl, setServerUrl } from '../../hooks/mcpServers.ts';
import { listTools, useMcpTools } from '../../hooks/mcpTools.ts';
import { openServer } from '../../hooks/openServer.ts';
import { visibleText } from '../../graph/visible.ts';
import { Shown } from '../../ui/Shown.tsx';
import { NumberField, TextField, type Apply } from './fields.tsx';

/** The marks of a tool, in words: what its annotations say. */
export const toolMarks = (tool: McpTool): string[] => [
  accessOfTool(tool) === 'read' ? 'read-only' : 'writes',
  ...(isDestructive(tool) ? ['destructive'] : []),
];

function ToolItem({ tool, chosen, choose }: { tool: McpTool; chosen: boolean; choose: () => void }) {
  return (
    <li className={`mcp-tool${chosen ? ' chosen' : ''}`} aria-label={`Tool ${visibleText(tool.name)}`}>
      <div>
        <strong><Shown text={tool.name} /></strong>{' '}
        {toolMarks(tool).map((mark) => (
          <span key={mark} className={`tool-mark tool-mark-${mark}`}>{mark}</span>
        ))}
      </div>
      {tool.description && <p className="field-help">{tool.description}</p>}
      {chosen ? <span className="muted">the skill's tool</span> : <button type="button" onClick={choose}>Use <Shown text={tool.name} /></button>}
    </li>
  );
}

export function McpSkillSettings({ skill, apply }: { skill: McpSkill; apply: (key: string) => Apply<unknown> }) {
  const [address, setAddress] = useState(() => serverUrl(skill.server) ?? '');
  const listed = useMcpTools((state) => state.servers[skill.server]);
  const problem = badServerUrl(address);
  // Under `loopscope open`, the folder's .mcp.json says where the server is.
  const served = openServer() !== null;
  const chosen = listed?.tools?.find((tool) => tool.name === skill.tool);
  const id = useId();
  return (
    <>
      <TextField label="Server" value={skill.server} optional={false} apply={apply('server')} help="A server name of the project's .mcp.json: the graph names it, the person defines it." />
      <TextField label="Tool" value={skill.tool} optional={false} apply={apply('tool')} />
      <NumberField label="Timeout (ms)" value={skill.timeoutMs} apply={apply('timeoutMs')} />
      <div className="field">
        {served ? (
          <p className="field-help">Served by loopscope open: “<Shown text={skill.server} />” is a server of the folder's .mcp.json, started once you allow it.</p>
        ) : (
          <>
            <label htmlFor={id}>Address of “<Shown text={skill.server} />” in this browser</label>
            <input
              id={id}
              type="url"
              placeholder="http://127.0.0.1:3001/mcp"
              value={address}
              onChange={(event) => {
                setAddress(event.target.value);
                setServerUrl(skill.server, event.target.value);
              }}
            />
            <p className="field-help">The page reaches MCP servers over Streamable HTTP. Kept in this browser only, never in the graph.</p>
          </>
        )}
        <button type="button" disabled={(!served && problem !== null) || listed?.listing === true} onClick={() => void listTools(skill.server, useApp.getState().graph)}>
          List the tools of <Shown text={skill.server} />
        </button>
      </div>
      {listed?.error && <p className="field-error" role="alert">{listed.error}</p>}
      {listed?.tools && (
        <ul className="mcp-tools" aria-label={`Tools of ${visibleText(skill.server)}`}>
          {listed.tools.map((tool) => (
            <ToolItem key={tool.name} tool={tool} chosen={tool.name === skill.tool} choose={() => {
              // The access its annotations say goes into the skill too, so the graph and the canvas show it before any run.
              apply('tool')(tool.name);
              apply('access')(accessOfTool(tool));
            }} />
          ))}
        </ul>
      )}
      {listed?.tools && <p className="field-help">{ANNOTATIONS_TRUSTED}</p>}
      {listed?.tools && !chosen && <p className="field-error"><Shown text={skill.server} /> has no tool “<Shown text={skill.tool} />”: pick one above.</p>}
      {chosen && (
        <p className="field-help">
          Each call needs {stricterAccess(accessOfTool(chosen), skill.access)} access (
          {stricterAccess(accessOfTool(chosen), skill.access) === accessOfTool(chosen) ? 'its annotations' : `as this skill declares, stricter than its annotations' ${accessOfTool(chosen)}`}
          ); the permission check runs before every call.
        </p>
      )}
    </>
  );
}
