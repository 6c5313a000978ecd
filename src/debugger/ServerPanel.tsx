import { useState } from 'react';
import { useApp } from '../store/index.ts';
import { connect, continueOnServer, decideOnServer, disconnect, forkOnServer, openThread, refreshThreads, selectGraph, startRun, stepOnServer, useServer } from '../store/langgraphServer.ts';


function ForkOnServer() {
  const selected = useApp((state) => state.selectedStep);
  const [text, setText] = useState('{}');
  const [error, setError] = useState<string | null>(null);
  const fork = () => {
    let edits: unknown;
    try {
      edits = JSON.parse(text);
    } catch (problem) {
      setError(`State edits: ${(problem as Error).message}`);
      return;
    }
    if (typeof edits !== 'object' || edits === null || Array.isArray(edits)) {
      setError('State edits: expected a JSON object of fields, e.g. {"question": "…"}');
      return;
    }
    setError(null);
    void forkOnServer(selected as number, edits as Record<string, unknown>);
  };
  return (
    <div className="server-fork">
      <label>
        State edits (JSON)
        <textarea rows={2} value={text} onChange={(event) => setText(event.target.value)} spellCheck={false} />
      </label>
      <button type="button" onClick={fork} disabled={selected === null}>Fork on server from step {selected ?? '–'}</button>
      {error && <p role="alert">{error}</p>}
    </div>
  );
}

/**
 * "Connect to a LangGraph server": the server's graphs and threads; a thread opens on the canvas as
 * a run with its timeline, attempts and edges; runs there are started, stepped, continued, approved
 * and forked, and followed as they stream. Requests go only to the address typed here.
 */
export function ServerPanel({ onClose }: { onClose: () => void }) {
  const server = useServer();
  const [address, setAddress] = useState(server.url ?? 'http://127.0.0.1:2024');
  const graph = server.graphs.find((candidate) => candidate.graphId === server.graphId);
  const busy = server.connecting || server.thread?.busy === true;
  const next = server.thread?.next ?? [];
  const approvalNext = graph?.loopscope?.nodes.some((node) => node.kind === 'approve' && next.includes(node.id)) ?? false;
  return (
    <div className="dialog server-panel" role="dialog" aria-label="LangGraph server" onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <h2>LangGraph server</h2>
      {server.url === null ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void connect(address);
          }}
        >
          <label>
            Server URL
            <input type="url" value={address} onChange={(event) => setAddress(event.target.value)} autoFocus />
          </label>
          <button type="submit" disabled={server.connecting}>{server.connecting ? 'Connecting…' : 'Connect'}</button>
          <p className="field-help">Requests go to this address only, with no key; e.g. the URL <code>npx loopscope serve graph.json</code> prints.</p>
        </form>
      ) : (
        <>
          <p>
            Connected to <strong>{server.url}</strong> <button type="button" onClick={disconnect}>Disconnect</button>
          </p>
          <label>
            Server graph
            <select value={server.graphId ?? ''} onChange={(event) => void selectGraph(event.target.value)} disabled={busy}>
              {server.graphs.map((candidate) => (
                <option key={candidate.assistantId} value={candidate.graphId}>{candidate.graphId}{candidate.loopscope ? '' : ' (not a Loopscope graph)'}</option>
              ))}
            </select>
          </label>
          <div className="server-actions">
            <button type="button" onClick={() => void startRun()} disabled={busy || !graph}>New run on server</button>
            <button type="button" onClick={() => void stepOnServer()} disabled={busy || !graph}>Step on server</button>
            <button type="button" onClick={() => void continueOnServer()} disabled={busy || next.length === 0}>Continue on server</button>
            <button type="button" onClick={() => void refreshThreads()} disabled={busy}>Refresh threads</button>
          </div>
          {approvalNext && (
            <div className="server-actions" role="group" aria-label="Approval on server">
              <button type="button" onClick={() => void decideOnServer('approved')} disabled={busy}>Approve on server</button>
              <button type="button" onClick={() => void decideOnServer('denied')} disabled={busy}>Deny on server</button>
            </div>
          )}
          {server.thread && (
            <p className="server-thread" aria-live="polite">
              Thread {server.thread.id.slice(0, 8)}: {server.thread.busy
                ? server.thread.joined ? `following run ${server.thread.joined.slice(0, 8)}, started elsewhere…` : 'running on the server…'
                : next.length ? `paused before ${next.join(', ')}` : 'ended'}
              {server.thread.truncated && ' (the oldest steps were not read)'}
            </p>
          )}
          {server.thread && graph?.loopscope && <ForkOnServer />}
          <ul className="server-threads" aria-label="Threads">
            {server.threads.map((thread) => (
              <li key={thread.id}>
                <button type="button" onClick={() => void openThread(thread.id)} disabled={busy} aria-current={server.thread?.id === thread.id}>
                  Open thread {thread.id.slice(0, 8)}
                </button>{' '}
                <span className="muted">{thread.status} · {new Date(thread.updatedAt).toLocaleTimeString()}</span>
              </li>
            ))}
            {server.threads.length === 0 && <li className="muted">No threads yet: start a run.</li>}
          </ul>
        </>
      )}
      {server.error && <p role="alert" className="server-error">{server.error}</p>}
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>Close</button>
      </div>
    </div>
  );
}
