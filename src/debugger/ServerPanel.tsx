import { useState } from 'react';
import { visibleText } from '../graph/visible.ts';
import { subgraphForkRefusal } from '../runtime/serverTrace.ts';
import { useApp } from '../store/index.ts';
import { coverCanvas } from '../ui/freeRoom.ts';
import { Shown } from '../ui/Shown.tsx';
import { disconnect, MAX_GRAPHS, MAX_THREADS, shortId, useServer, type ServerConnection } from '../server/langgraphServer.ts';
import { connect, serverController } from '../server/serverRun.ts';
import { useActiveRun } from './hooks.ts';
import { formOf, inputProblem } from '../runtime/inputForm.ts';
import { ChatBox, InputSchemaNote, RunInputForm } from './server/RunInput.tsx';

/**
 * Does one of the debugger's run actions (the same Continue, Approve, Deny and Fork as on a run in
 * the page) on the open thread's run, made the live run first: a run started in the page since may
 * have taken its place.
 */
const onServer = async (action: () => Promise<void>) => {
  await serverController()?.follow();
  await action();
};

/** JSON the person typed, or why it is not what `what` needs. */
const readJson = (text: string, what: string, object = false): { value: unknown } | { error: string } => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (problem) {
    return { error: `${what}: ${(problem as Error).message}` };
  }
  if (object && (typeof value !== 'object' || value === null || Array.isArray(value))) return { error: `${what}: expected a JSON object of channels, e.g. {"messages": […]}` };
  return { value };
};

function ForkOnServer({ foreign }: { foreign: boolean }) {
  const selected = useApp((state) => state.selectedStep);
  const run = useActiveRun();
  const [text, setText] = useState('{}');
  const [goto, setGoto] = useState<{ step: number | null; to: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const note = useServer((state) => state.forkNote);
  const step = selected === null ? undefined : run?.trace.steps[selected - 1];
  // A step inside a subgraph cannot be forked from: said before the click (the server's controller refuses it too).
  const refusal = foreign && run && selected !== null ? subgraphForkRefusal(run.trace.steps, selected - 1) : null;
  // Where a node that routes with Command({goto}) may send the run: its declared ends, as drawn.
  const ends = foreign && step?.server?.conditional ? step.server.targets : [];
  // A step that changed no channel only chose where to go, as a Command does: its fork goes where it went unless told otherwise;
  // any other step's routing function chooses again from the edited writes ('').
  const routedOnly = step !== undefined && Object.keys(step.writes).length === 0;
  const chosenGoto = goto !== null && goto.step === selected ? goto.to : routedOnly ? (step?.server?.chose[0] ?? '') : '';
  const fork = () => {
    const read = readJson(text, foreign ? `Writes of step ${selected}` : 'State edits', true);
    if ('error' in read) {
      setError(read.error);
      return;
    }
    setError(null);
    const state = read.value as Record<string, unknown>;
    const chosen = ends.length > 0 && chosenGoto ? chosenGoto : null;
    // The store's Fork, as on a run in the page: the server's controller branches the thread and goes on.
    void onServer(() => useApp.getState().fork(selected as number, { state, ...(chosen ? { outcome: chosen } : {}) }));
  };
  // A graph drawn from the server: what the step's node returned, to edit rather than to write out.
  const fill = async () => {
    if (selected === null) return;
    const writes = await serverController()?.ownWritesAt(selected);
    setError(writes ? null : `The server kept no writes of step ${selected}: type the channels the fork writes as ${step?.server?.name ?? 'its node'}.`);
    setText(JSON.stringify(writes ?? {}, null, 2));
  };
  return (
    <div className="server-fork">
      <label>
        {foreign ? `Writes of step ${selected ?? '–'} (JSON)` : 'State edits (JSON)'}
        <textarea rows={foreign ? 6 : 2} value={text} onChange={(event) => setText(event.target.value)} spellCheck={false} />
      </label>
      {ends.length > 0 && (
        <label>
          Then go to
          <select value={chosenGoto} onChange={(event) => setGoto({ step: selected, to: event.target.value })} aria-describedby="server-fork-goto">
            <option value="">as its routing function chooses from the edited writes</option>
            {ends.map((end) => <option key={end} value={end}>{visibleText(end)}</option>)}
          </select>
        </label>
      )}
      {ends.length > 0 && <p className="field-help" id="server-fork-goto">Where a node that returns <code>Command(&#123;goto&#125;)</code> sends the run (its route is not among its writes); a routing function chooses again from the edited writes.</p>}
      <div className="server-actions">
        {foreign && <button type="button" onClick={() => void fill()} disabled={selected === null}>Edit what step {selected ?? '–'} wrote</button>}
        <button type="button" onClick={fork} disabled={selected === null || refusal !== null} aria-describedby={refusal ? 'server-fork-refusal' : undefined}>Fork on server from step {selected ?? '–'}</button>
      </div>
      {foreign && <p className="field-help">A fork runs step {selected ?? '–'} again as these writes, from the checkpoint it ran from: each reducer applies them once, and the branch it came from stays.</p>}
      {refusal && <p className="field-help" id="server-fork-refusal">{refusal}</p>}
      {note && <p role="status" className="warn"><Shown text={note} /></p>}
      {error && <p role="alert">{error}</p>}
    </div>
  );
}

/** The value an `interrupt()` waits with, and the answer that resumes it. */
function ResumeInterrupt({ thread, busy }: { thread: NonNullable<ServerConnection['thread']>; busy: boolean }) {
  const [text, setText] = useState('"yes"');
  const [error, setError] = useState<string | null>(null);
  const resume = () => {
    const read = readJson(text, 'Resume value');
    if ('error' in read) {
      setError(read.error);
      return;
    }
    setError(null);
    void serverController()?.resumeOnServer(read.value);
  };
  return (
    <div className="server-interrupt" role="group" aria-label="Interrupt on server">
      {thread.interrupts.map((interrupt, index) => (
        <div key={index}>
          <p><strong><Shown text={interrupt.node} /></strong> waits on <code>interrupt()</code> with:</p>
          <pre className="json" aria-label={`Interrupt value of ${visibleText(interrupt.node)}`}>{JSON.stringify(interrupt.value, null, 2)}</pre>
        </div>
      ))}
      <label>
        Resume value (JSON)
        <textarea rows={2} value={text} onChange={(event) => setText(event.target.value)} spellCheck={false} />
      </label>
      <button type="button" onClick={resume} disabled={busy}>Resume on server</button>
      {error && <p role="alert">{error}</p>}
    </div>
  );
}

/** How much of the canvas's width the panel takes at most: the rest stays free for the graph, which is fitted there. */
const CANVAS_SHARE = 0.5;

/**
 * The panel over the canvas's right only, within the canvas: the timeline, the step detail and
 * the inspector beside and under it stay free (a laptop's 1280×720 included). Placed again as the
 * canvas changes size (the window, a splitter).
 */
const overTheCanvas = (element: HTMLElement | null) => {
  const canvas = element?.ownerDocument.querySelector('.app-canvas');
  if (!element || !canvas) return coverCanvas(element);
  const place = () => {
    const room = canvas.getBoundingClientRect();
    const view = element.ownerDocument.documentElement.clientWidth;
    Object.assign(element.style, { top: `${room.top + 8}px`, right: `${view - room.right + 8}px`, width: `${Math.max(280, Math.min(420, room.width * CANVAS_SHARE))}px`, maxHeight: `${Math.max(240, room.height - 16)}px` });
  };
  place();
  const observer = new ResizeObserver(place);
  observer.observe(canvas);
  const uncover = coverCanvas(element);
  return () => {
    observer.disconnect();
    uncover?.();
  };
};

/**
 * "Connect to a LangGraph server": the server's graphs and threads; a thread opens as a run with
 * its timeline, and runs there are started, stepped, continued, resumed, approved, forked and
 * compared, and followed as they stream. Requests go only to the address typed here.
 */
export function ServerPanel({ onClose }: { onClose: () => void }) {
  const server = useServer();
  const [address, setAddress] = useState(server.url ?? 'http://127.0.0.1:2024');
  const [input, setInput] = useState('{}');
  const [inputError, setInputError] = useState<string | null>(null);
  const graph = server.graphs.find((candidate) => candidate.assistantId === server.assistantId) ?? server.graphs.find((candidate) => candidate.graphId === server.graphId);
  // Several assistants may run one graph: the graphs listed once, the assistants of the chosen one apart.
  const graphIds = [...new Set(server.graphs.map((candidate) => candidate.graphId))];
  const assistants = server.graphs.filter((candidate) => candidate.graphId === server.graphId).sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
  const [configText, setConfigText] = useState<{ assistant: string | null; text: string } | null>(null);
  const config = configText?.assistant === (graph?.assistantId ?? null) ? configText.text : JSON.stringify(graph?.config ?? {}, null, 2);
  const controller = serverController();
  const connection = controller?.connection;
  const busy = server.connecting || server.thread?.busy === true;
  const next = server.thread?.next ?? [];
  const waiting = (server.thread?.interrupts.length ?? 0) > 0;
  const foreign = graph !== undefined && graph.loopscope === null;
  // Read from the connection's state, which this panel follows.
  const approvalNext = Boolean(controller?.session.pending);
  // The form the graph's input schema gives (read once per assistant), if any.
  const form = foreign && graph.inputSchema && 'schema' in graph.inputSchema ? formOf(graph.inputSchema.schema) : null;
  // A field of the form typed so that it does not read as its type yet (the JSON keeps the last input that did).
  const [typedProblem, setTypedProblem] = useState<{ assistant: string; problem: string | null } | null>(null);
  const fieldProblem = form && typedProblem && typedProblem.assistant === graph?.assistantId ? typedProblem.problem : null;
  /** The run input a drawn graph starts with, read from what the person typed (checked against its form's fields). */
  const runInput = () => {
    if (!foreign) return {};
    const read = readJson(input, 'Run input', true);
    const schemaProblem = form && !('error' in read) ? inputProblem(form, read.value as Record<string, unknown>) : null;
    const problem = 'error' in read ? read.error : (fieldProblem ?? (schemaProblem && `Run input: ${schemaProblem}`));
    setInputError(problem);
    return 'error' in read || problem ? null : read.value;
  };
  /** The config the run gets: the assistant's, as the person edited it. */
  const runConfig = () => {
    const read = readJson(config, 'Assistant config', true);
    if ('error' in read) setInputError(read.error);
    return 'error' in read ? null : (read.value as Record<string, unknown>);
  };
  const start = (how: 'startRun' | 'stepOnServer') => {
    const value = runInput();
    const configured = value === null ? null : runConfig();
    if (value === null || configured === null) return;
    connection?.setRunConfig(configured);
    // A new run of a Loopscope export stops at the node breakpoints set in the page, as Continue's does.
    void (how === 'startRun' ? controller?.startRun(value, useApp.getState().breakpoints.nodes) : controller?.stepOnServer(value));
  };
  /** A chat box's message: the open thread goes on with it; a new thread starts with it and the rest of the run input. */
  const send = (message: Record<string, unknown>) => {
    const configured = runConfig();
    if (configured === null) return;
    connection?.setRunConfig(configured);
    const typed = server.thread ? null : readJson(input, 'Run input', true);
    void controller?.sendOnThread({ ...(typed && 'value' in typed ? (typed.value as Record<string, unknown>) : {}), ...message });
  };
  return (
    // Over the canvas: a fit keeps the graph out from under it (ui/freeRoom.ts).
    <div className="dialog server-panel" role="dialog" aria-label="LangGraph server" data-covers-canvas ref={overTheCanvas} onKeyDown={(event) => event.key === 'Escape' && onClose()}>
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
          <div className="server-actions">
            <button type="submit" disabled={server.connecting}>{server.connecting ? 'Connecting…' : 'Connect'}</button>
            {server.connecting && <button type="button" onClick={() => server.cancelConnecting?.()}>Cancel</button>}
          </div>
          <p className="field-help">Requests go to this address only, with no key; e.g. the URL <code>npx loopscope serve graph.json</code> or <code>langgraphjs dev</code> prints.</p>
        </form>
      ) : (
        <>
          <p>
            Connected to <strong>{server.url}</strong> <button type="button" onClick={disconnect}>Disconnect</button>
          </p>
          <label>
            Server graph
            <select value={server.graphId ?? ''} onChange={(event) => void connection?.selectGraph(event.target.value)} disabled={busy}>
              {graphIds.map((id) => {
                const first = server.graphs.find((candidate) => candidate.graphId === id);
                return <option key={id} value={id}>{visibleText(id)}{first?.described && !first.loopscope ? ' (LangGraph, drawn from the server)' : ''}</option>;
              })}
            </select>
          </label>
          {graph && (
            <>
              <label>
                Assistant
                <select value={graph.assistantId} onChange={(event) => void connection?.selectGraph(graph.graphId, event.target.value)} disabled={busy}>
                  {assistants.map((candidate) => (
                    <option key={candidate.assistantId} value={candidate.assistantId}>{visibleText(`${candidate.name}${candidate.isDefault ? ' (default)' : ''} · version ${candidate.version ?? '?'} · id ${candidate.assistantId}`)}</option>
                  ))}
                </select>
              </label>
              <label>
                Assistant config for runs (JSON)
                <textarea rows={2} value={config} onChange={(event) => setConfigText({ assistant: graph.assistantId, text: event.target.value })} spellCheck={false} />
              </label>
            </>
          )}
          {server.graphsCapped && <p className="field-help" role="note">The server lists more graphs: these are its first {MAX_GRAPHS}, the most Loopscope lists.</p>}
          {foreign && (form ? <RunInputForm key={graph.assistantId} form={form} text={input} onText={setInput} problem={fieldProblem ?? inputError} onProblem={(problem) => {
            setTypedProblem({ assistant: graph.assistantId, problem });
            setInputError(null);
          }} /> : (
            <>
              <InputSchemaNote graph={graph} />
              <label>
                Run input (JSON)
                <textarea rows={2} value={input} onChange={(event) => setInput(event.target.value)} spellCheck={false} placeholder='{"messages": [{"role": "human", "content": "Hello"}]}' />
              </label>
            </>
          ))}
          {inputError && !form && <p role="alert">{inputError}</p>}
          {form?.messages && <ChatBox thread={server.thread?.id ?? null} busy={busy || waiting} onSend={send} />}
          <div className="server-actions">
            <button type="button" onClick={() => start('startRun')} disabled={busy || !graph}>New run on server</button>
            <button type="button" onClick={() => start('stepOnServer')} disabled={busy || !graph}>Step on server</button>
            <button type="button" onClick={() => void onServer(() => useApp.getState().continueRun())} disabled={busy || next.length === 0 || waiting} aria-describedby={waiting ? 'server-continue-waits' : undefined}>Continue on server</button>
            <button type="button" onClick={() => void connection?.refreshThreads()} disabled={busy}>Refresh threads</button>
          </div>
          {waiting && <p className="field-help" id="server-continue-waits">The run waits on an interrupt(): Continue would run its node again to the same question. Answer it with Resume on server.</p>}
          {approvalNext && (
            <div className="server-actions" role="group" aria-label="Approval on server">
              <button type="button" onClick={() => void onServer(() => useApp.getState().decide('approved'))} disabled={busy}>Approve on server</button>
              <button type="button" onClick={() => void onServer(() => useApp.getState().decide('denied'))} disabled={busy}>Deny on server</button>
            </div>
          )}
          {server.thread && (
            <p className="server-thread" aria-live="polite">
              Thread {shortId(server.thread.id)}: {server.thread.busy
                ? server.thread.joined ? `following run ${shortId(server.thread.joined)}, started elsewhere…` : 'running on the server…'
                : server.thread.failed !== undefined ? `stopped with an error at ${visibleText(server.thread.failed)}`
                : server.thread.interrupts.length ? `waiting on an interrupt in ${visibleText(server.thread.interrupts.map((interrupt) => interrupt.node).join(', '))}`
                  : next.length ? `paused before ${visibleText(next.join(', '))}` : 'ended'}
              {server.thread.truncated && ' (the oldest steps were not read)'}
            </p>
          )}
          {server.thread?.untold && <p className="field-help"><Shown text={server.thread.untold} /></p>}
          {server.thread && server.thread.interrupts.length > 0 && <ResumeInterrupt thread={server.thread} busy={busy} />}
          {server.thread && graph && <ForkOnServer foreign={foreign} />}
          <ul className="server-threads" aria-label="Threads">
            {server.threads.map((thread) => (
              <li key={thread.id}>
                <button type="button" onClick={() => void controller?.openThread(thread.id)} disabled={busy} aria-current={server.thread?.id === thread.id}>
                  Open thread {shortId(thread.id)}
                </button>{' '}
                {server.thread && server.thread.id !== thread.id && (
                  <button type="button" onClick={() => void controller?.compareWith(thread.id)} disabled={busy}>Compare with thread {shortId(thread.id)}</button>
                )}{' '}
                <span className="muted">{visibleText(thread.status)} · {new Date(thread.updatedAt).toLocaleTimeString()}</span>
              </li>
            ))}
            {server.threads.length === 0 && <li className="muted">No threads yet: start a run.</li>}
          </ul>
          {server.moreThreads && <button type="button" onClick={() => void connection?.showMoreThreads()} disabled={busy}>Show more threads</button>}
          {server.threadsCapped && <p className="field-help" role="note">The server has more threads: these are its newest {MAX_THREADS}, the most Loopscope lists.</p>}
        </>
      )}
      {server.error && <p role="alert" className="server-error">{server.error}</p>}
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>Close</button>
      </div>
    </div>
  );
}
