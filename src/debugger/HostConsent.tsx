import { useState } from 'react';
import type { ContactedHost } from '../graph/index.ts';
import { useHostRequest } from '../store/hosts.ts';
import { getKey, setKey } from '../store/secrets.ts';
import { Dialog } from '../ui/Dialog.tsx';

/** A key asked for where it will be sent: typed here, it is bound to that origin only. */
function KeyField({ name, origin }: { name: string; origin: string }) {
  const [value, setValue] = useState(() => getKey(name, origin) ?? '');
  return (
    <label className="host-key">
      API key {name} for {origin}
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
      <strong>{host.origin ?? host.address}</strong> <span className="muted">({host.skills.join(', ')})</span>
      {host.origin === null ? (
        <p className="field-help">Its address is built during the run: a request to a host not allowed here is refused before it is sent.</p>
      ) : (
        host.keyNames.map((name) => <KeyField key={name} name={name} origin={host.origin as string} />)
      )}
    </li>
  );
}

/**
 * Before the first run of a graph that contacts other hosts: which hosts, for which skills, and
 * the keys that would go there. Nothing is sent until the person allows it; asked once per graph and host.
 */
export function HostConsent() {
  const request = useHostRequest((state) => state.request);
  if (!request) return null;
  return (
    <Dialog title="Allow network access" onClose={() => request.answer(false)}>
      <p>
        “{request.graphName}” has skills that send requests to other hosts. Nothing is sent until you allow it, and
        only to these hosts; a key goes only to the host it is given for.
      </p>
      <ul className="host-list">
        {request.hosts.map((host) => (
          <HostItem key={host.origin ?? host.address} host={host} />
        ))}
      </ul>
      <div className="dialog-actions">
        <button type="button" onClick={() => request.answer(true)} data-autofocus>Allow and run</button>
        <button type="button" onClick={() => request.answer(false)}>Cancel</button>
      </div>
    </Dialog>
  );
}
