import { useState } from 'react';
import type { ContactedHost } from '../graph/index.ts';
import { originOf } from '../graph/hosts.ts';
import { useHostRequest, type ServerAsk } from '../network/hosts.ts';
import { badServerUrl, serverUrl, setServerUrl } from '../network/mcpServers.ts';
import { getKey, setKey } from '../network/secrets.ts';
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
 * Before the first run of a graph that contacts other hosts: which hosts, for which skills, and
 * the keys that would go there; and the address of each MCP server it names. Nothing is sent until
 * the person allows it; asked once per graph and host.
 */
export function HostConsent() {
  const request = useHostRequest((state) => state.request);
  const [urls, setUrls] = useState<Record<string, string>>(() => Object.fromEntries((request?.servers ?? []).map((server) => [server.name, serverUrl(server.name) ?? ''])));
  if (!request) return null;
  const urlOf = (name: string) => urls[name] ?? serverUrl(name) ?? '';
  const missing = request.servers.some((server) => badServerUrl(urlOf(server.name)) !== null);
  const allow = () => {
    for (const server of request.servers) setServerUrl(server.name, urlOf(server.name));
    request.answer(true);
  };
  return (
    <Dialog title="Allow network access" onClose={() => request.answer(false)}>
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
      <div className="dialog-actions">
        <button type="button" onClick={allow} disabled={missing} data-autofocus>Allow and run</button>
        <button type="button" onClick={() => request.answer(false)}>Cancel</button>
      </div>
    </Dialog>
  );
}
