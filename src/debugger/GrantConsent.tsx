import { ANNOTATIONS_TRUSTED, type AccessLevel } from '../graph/mcpAccess.ts';
import type { PermissionMode } from '../graph/schema.ts';
import { visibleText } from '../graph/visible.ts';
import { useGrantRequests } from '../hooks/consent.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { ServerDefinition } from './ServerStartConsent.tsx';

/** What each mode lets a run's real calls do. */
const MODE_MEANS: Record<PermissionMode, string> = {
  'read-only': 'its real calls may only read',
  workspace: 'its real calls may also write',
  full: 'its real calls may also write and run commands',
};

/** The groups of calls, the most a call may do first. */
const ACCESS_GROUPS: { access: AccessLevel; title: string }[] = [
  { access: 'exec', title: 'Runs commands (exec)' },
  { access: 'write', title: 'Writes' },
  { access: 'read', title: 'Reads' },
];

/**
 * Under `loopscope open`, before a run of a graph that calls the folder's MCP tools: the graph and
 * its file, the permission mode the file asks for, each server as it runs, and the tools its skills
 * call by access. The file only asks: the person grants that mode, or read-only, or denies the run
 * (Esc too). Remembered for the file, for exactly what is shown here.
 */
export function GrantConsent() {
  const request = useGrantRequests((state) => state.requests[0]);
  if (!request) return null;
  const deny = () => request.answer(null);
  const graph = `“${visibleText(request.graphName)}”`;
  return (
    <Dialog key={request.file ?? request.graphName} title={`Permission for ${request.file === null ? graph : visibleText(request.file)}`} onClose={deny} wide>
      <p>
        {graph} ({request.file === null ? 'not a file yet: asked at each run' : <>the file <code>{visibleText(request.file)}</code></>}) asks for{' '}
        <strong>{request.mode}</strong>: {MODE_MEANS[request.mode]}. A graph file only asks; its run gets what you grant here,
        remembered for this file until the mode it asks, a server or a tool’s access changes.
      </p>
      {request.servers.map((server) => (
        <section key={server.name} aria-label={`MCP server ${visibleText(server.name)}`}>
          <h3>MCP server “{visibleText(server.name)}”</h3>
          <ServerDefinition server={server} />
        </section>
      ))}
      {ACCESS_GROUPS.map(({ access, title }) => {
        const calls = request.calls.filter((call) => call.access === access);
        return calls.length === 0 ? null : (
          <section key={access} aria-label={`Tools that ${access === 'read' ? 'read' : access === 'write' ? 'write' : 'run commands'}`}>
            <h3>{title}</h3>
            <ul className="host-list">
              {calls.map((call) => (
                <li key={call.skill}>
                  <strong>{visibleText(call.tool)}</strong> on “{visibleText(call.server)}” <span className="muted">(skill {visibleText(call.skill)})</span>
                  {call.missing && ' — the server lists no such tool: its calls fail'}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
      <p className="field-help">{ANNOTATIONS_TRUSTED} Source: <code>{visibleText(request.source)}</code>.</p>
      <div className="dialog-actions">
        <button type="button" onClick={() => request.answer(request.mode)}>Grant {request.mode}</button>
        {request.mode !== 'read-only' && <button type="button" onClick={() => request.answer('read-only')}>Read-only only</button>}
        <button type="button" onClick={deny} data-autofocus>Deny</button>
      </div>
    </Dialog>
  );
}
