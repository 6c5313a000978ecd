import { useState } from 'react';
import type { ContactedHost, PermissionMode } from '../graph/index.ts';
import { ANNOTATIONS_TRUSTED } from '../graph/mcpAccess.ts';
import { originOf } from '../graph/hosts.ts';
import { useHostRequest, type HostRequest, type ServerAsk } from '../hooks/consent.ts';
import { badServerUrl, serverUrl, setServerUrl } from '../hooks/mcpServers.ts';
import { getKey, setKey } from '../hooks/keys.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Shown } from '../ui/Shown.tsx';

/** A key asked for where it will be sent: typed here, it is bound to that origin only. */
function KeyField({ name, origin }: { name: string; origin: string }) {
  const [value, setValue] = useState(() => getKey(name, origin) ?? '');
  return (
    <label className="host-key">
      API key <Shown text={name} /> for <Shown text={origin} />
      <input
        type="password"
        autoComplete="off"
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          setKey(name, origin, event.target.value);
        }}
      />
    </label>
  );
}

function HostItem({ host }: { host: ContactedHost }) {
  return (
    <li>
      <strong><Shown text={host.origin ?? host.address} /></strong> <span className="muted">(<Shown text={host.skills.join(', ')} />)</span>
      {host.origin === null ? (
        <p className="field-help">Its address is built during the run: a request to a host not allowed here is refused before it is sent.</p>
      ) : (
        host.keyNames.map((name) => <KeyField key={name} name={name} origin={host.origin as string} />)
      )}
    </li>
  );
}

/** An MCP server the graph names, and the address this browser reaches it at (kept here, never in the graph). */
function ServerItem({ server, url, onUrl }: { server: ServerAsk; url: string; onUrl: (url: string) => void }) {
  const problem = badServerUrl(url);
  const origin = problem ? null : originOf(url);
  const id = `mcp-server-${server.name}`;
  return (
    <li>
      <label htmlFor={id}>
        <strong>MCP server “<Shown text={server.name} />”</strong> <span className="muted">(<Shown text={server.skills.join(', ')} />)</span>
      </label>
      <input id={id} type="url" placeholder="http://127.0.0.1:3001/mcp" value={url} aria-describedby={`${id}-help`} onChange={(event) => onUrl(event.target.value)} />
      <p className="field-help" id={`${id}-help`}>
        {problem ? `Its address: ${problem}. ` : `Requests go to ${origin}. `}
        The page reaches MCP servers over Streamable HTTP only; the address is kept in this browser, never in the graph.
      </p>
    </li>
  );
}

/**
 * The permission mode a graph asks for its real skills (MCP tools, or calls to these hosts): its
 * file only asks, and the person grants it or read-only (chosen by default: the person widens it,
 * never the file).
 */
function ModeChoice({ mode, servers, granted, onGranted }: { mode: PermissionMode; servers: boolean; granted: PermissionMode; onGranted: (mode: PermissionMode) => void }) {
  return (
    <fieldset className="host-mode">
      <legend>Permission for its {servers ? 'MCP tools' : 'calls to these hosts'}: the graph asks for {mode}</legend>
      {[...new Set<PermissionMode>([mode, 'read-only'])].map((choice) => (
        <label key={choice}>
          <input type="radio" name="granted-mode" checked={granted === choice} onChange={() => onGranted(choice)} />
          {choice === mode ? `Grant ${mode}, as it asks` : 'Read-only only: its writes are denied'}
        </label>
      ))}
      {servers && <p className="field-help">{ANNOTATIONS_TRUSTED}</p>}
    </fieldset>
  );
}

/**
 * Before the first run of a graph that contacts other hosts: which hosts, for which skills, and
 * the keys that would go there; and the address of each MCP server it names, with the permission
 * mode its run gets. Nothing is sent until the person allows it; asked once per graph and host,
 * and again when the mode asked or a server's address changes.
 */
export function HostConsent() {
  const request = useHostRequest((state) => state.request);
  const [urls, setUrls] = useState<Record<string, string>>(() => Object.fromEntries((request?.servers ?? []).map((server) => [server.name, serverUrl(server.name) ?? ''])));
  // Each question starts from read-only: a mode picked for one graph is never carried to another's.
  const [granted, setGranted] = useState<{ for: HostRequest | null; mode: PermissionMode }>({ for: request, mode: 'read-only' });
  if (granted.for !== request) setGranted({ for: request, mode: 'read-only' });
  if (!request) return null;
  const urlOf = (name: string) => urls[name] ?? serverUrl(name) ?? '';
  const missing = request.servers.some((server) => badServerUrl(urlOf(server.name)) !== null);
  const allow = () => {
    for (const server of request.servers) setServerUrl(server.name, urlOf(server.name));
    request.answer(request.choosesMode ? granted.mode : request.mode);
  };
  return (
    <Dialog title="Allow network access" onClose={() => request.answer(null)}>
      <p>
        “<Shown text={request.graphName} />” has skills that send requests to other hosts. Nothing is sent until you allow it, and
        only to these hosts; a key goes only to the host it is given for.
      </p>
      <ul className="host-list">
        {request.hosts.map((host) => (
          <HostItem key={host.origin ?? host.address} host={host} />
        ))}
        {request.servers.map((server) => (
          <ServerItem key={server.name} server={server} url={urlOf(server.name)} onUrl={(url) => setUrls((current) => ({ ...current, [server.name]: url }))} />
        ))}
      </ul>
      {request.choosesMode && <ModeChoice mode={request.mode} servers={request.servers.length > 0} granted={granted.mode} onGranted={(mode) => setGranted({ for: request, mode })} />}
      <div className="dialog-actions">
        <button type="button" onClick={allow} disabled={missing} data-autofocus>Allow and run</button>
        <button type="button" onClick={() => request.answer(null)}>Cancel</button>
      </div>
    </Dialog>
  );
}
