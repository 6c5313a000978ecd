import { visibleText } from '../graph/visible.ts';
import { useServerStartRequests } from '../hooks/consent.ts';
import type { ListedServer } from '../skills/mcpFolder.ts';
import { Dialog } from '../ui/Dialog.tsx';

/**
 * A server of the folder's `.mcp.json` exactly as it runs: its command line (quoted as a shell
 * reads it), the folder it starts in and every environment variable with its value; or its address
 * and the headers sent. The file is not the person's to trust: each string shows its control and
 * format characters escaped, so bidi controls cannot make one program read as another.
 */
export function ServerDefinition({ server }: { server: ListedServer }) {
  return (
    <dl className="server-definition" aria-label={`Definition of ${visibleText(server.name)}`}>
      {server.command !== undefined ? (
        <>
          <dt>Command line</dt>
          <dd><pre className="server-command">{visibleText(server.command)}</pre></dd>
          <dt>Runs in</dt>
          <dd><code>{visibleText(server.cwd ?? '')}</code></dd>
          <dt>Environment</dt>
          <dd>
            {server.env && server.env.length > 0 ? (
              <ul className="server-env">
                {server.env.map(([name, value]) => (
                  <li key={name}><code>{visibleText(name)}={visibleText(value)}</code></li>
                ))}
              </ul>
            ) : (
              'none set by .mcp.json'
            )}
          </dd>
        </>
      ) : (
        <>
          <dt>Address</dt>
          <dd><pre className="server-command">{visibleText(server.url ?? '')}</pre></dd>
          {server.headers && server.headers.length > 0 && (
            <>
              <dt>Headers sent</dt>
              <dd>
                {server.headers.map(visibleText).join(', ')} (their values as .mcp.json writes them
                {server.headerVariables && server.headerVariables.length > 0 && <>, sending this machine’s {server.headerVariables.map(visibleText).join(', ')}</>})
              </dd>
            </>
          )}
        </>
      )}
    </dl>
  );
}

/**
 * Under `loopscope open`, before a server of the folder's `.mcp.json` is first started (or
 * reached): which server, for which skills, and what would run. Nothing starts until the person
 * allows it, and the allowance is for this very definition; Deny (or Esc) fails that server's calls
 * in this run.
 */
export function ServerStartConsent() {
  const request = useServerStartRequests((state) => state.requests[0]);
  if (!request) return null;
  const deny = () => request.answer(false);
  const name = visibleText(request.server.name);
  return (
    // Keyed by server and definition: a second question is a new dialog, focused afresh.
    <Dialog key={`${request.server.name} ${request.server.digest}`} title={`Start the MCP server “${name}”?`} onClose={deny}>
      <p>
        “{visibleText(request.graphName)}” calls tools of the MCP server “{name}” ({request.skills.map(visibleText).join(', ')}).{' '}
        {request.server.command !== undefined
          ? 'Allowed, loopscope open starts it on this machine with your permissions, as '
          : 'Allowed, loopscope open sends its calls to this address, as '}
        <code>{visibleText(request.source)}</code> defines it (a <code>{'${NAME}'}</code> is read from loopscope open’s environment):
      </p>
      <ServerDefinition server={request.server} />
      <p className="field-help">Allowed for this definition: a change in .mcp.json asks again. It stops when loopscope open stops. Deny fails its calls in this run.</p>
      <div className="dialog-actions">
        <button type="button" onClick={() => request.answer(true)}>Allow</button>
        <button type="button" onClick={deny} data-autofocus>Deny</button>
      </div>
    </Dialog>
  );
}
