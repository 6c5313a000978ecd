import { useServerStartRequests } from '../network/hosts.ts';
import { Dialog } from '../ui/Dialog.tsx';

/**
 * Under `loopscope open`, before a server of the folder's `.mcp.json` is first started (or
 * reached): which server, for which skills, and the command line it would run, as the file says.
 * Nothing starts until the person allows it; Deny (or Esc) fails that server's calls in this run.
 */
export function ServerStartConsent() {
  const request = useServerStartRequests((state) => state.requests[0]);
  if (!request) return null;
  const deny = () => request.answer(false);
  return (
    // Keyed by server: a second question is a new dialog, focused afresh.
    <Dialog key={request.server} title={`Start the MCP server “${request.server}”?`} onClose={deny}>
      <p>
        “{request.graphName}” calls tools of the MCP server “{request.server}” ({request.skills.join(', ')}).{' '}
        {request.command !== undefined
          ? 'Allowed, loopscope open starts it on this machine with your permissions, running this command line from '
          : 'Allowed, loopscope open sends its calls to this address, from '}
        <code>{request.source}</code>:
      </p>
      <pre className="server-command">{request.command ?? request.url}</pre>
      {request.env && request.env.length > 0 && <p>With the environment variables {request.env.join(', ')} that .mcp.json sets.</p>}
      <p className="field-help">Asked once per server; it stops when loopscope open stops. Deny fails its calls in this run.</p>
      <div className="dialog-actions">
        <button type="button" onClick={() => request.answer(true)}>Allow</button>
        <button type="button" onClick={deny} data-autofocus>Deny</button>
      </div>
    </Dialog>
  );
}
