/**
 * The step detail of a run of a graph Loopscope did not make, read from a LangGraph server (SPEC §8):
 * how the run stands (`__end__` reached, the interrupt it waits on, the error), what is known of it
 * (steps, and tokens from its messages' usage_metadata; no limits it does not have), and the
 * selected step: which node ran, where it went next and why, its subgraph, and what it changed:
 * messages as a conversation (the ones it added), other channels before → after.
 */
import { useMemo } from 'react';
import { visibleText } from '../../graph/visible.ts';
import { asMessages, diffMessages, messageChannels, type ChatMessage } from '../../runtime/messages.ts';
import { foreignStateAfter, foreignStateBefore } from '../../runtime/serverTrace.ts';
import { noteWords, runStopWords } from '../../runtime/stepWords.ts';
import type { TraceStep } from '../../runtime/trace.ts';
import { useApp } from '../../store/index.ts';
import { useServer } from '../../server/langgraphServer.ts';
import { serverController } from '../../server/serverRun.ts';
import type { RunRecord } from '../../store/runSlice.ts';
import { Shown } from '../../ui/Shown.tsx';
import { diffStates } from '../analysis.ts';
import { BreakpointsPanel } from '../BreakpointsPanel.tsx';
import { Diff } from '../StepView.tsx';
import { Conversation } from './Conversation.tsx';
import { TaskOwn, WhyRoute } from './ServerStepWhy.tsx';
import './server.css';

function RunState({ run }: { run: RunRecord }) {
  const thread = useServer((state) => state.thread);
  const following = thread !== null && run.server?.endsWith(` ${thread.id}`);
  const { stopReason } = run.trace;
  const stopExplain = runStopWords(run.trace);
  let text: string;
  if (following && thread.busy) text = 'Running on the server…';
  else if (stopReason === 'completed') text = `Ended: ${stopExplain ?? '__end__ reached'}.`;
  // A task that threw says the whole stop (stepWords.ts `server_error`): the run says that one thing.
  else if (stopReason === 'error' && stopExplain) text = `${stopExplain[0].toUpperCase()}${stopExplain.slice(1)}.`;
  else if (stopReason) text = `Stopped: ${stopReason}${stopExplain ? ` — ${stopExplain}` : ''}.`;
  else if (following && thread.interrupts.length) text = `Waiting: ${thread.interrupts.map((interrupt) => `${interrupt.node} waits on interrupt() with ${JSON.stringify(interrupt.value)}`).join('; ')}. Answer it with Resume on server.`;
  else if (following && thread.next.length) text = `Paused before ${thread.next.join(', ')} (interruptBefore): Continue on server goes on.`;
  else text = 'Paused.';
  // Node names and values are the server's: one line, their control and format characters as escapes.
  return <div role="status" className={`stop-banner${stopReason ? ` stopped stop-${stopReason === 'completed' ? 'ok' : 'halt'}` : ''}`}><Shown text={text} /></div>;
}

/** Only what the server tells: steps, and tokens its messages report. */
function Known({ run, step }: { run: RunRecord; step: TraceStep | undefined }) {
  const tokens = step?.tokensUsed ?? run.trace.tokensUsed;
  // Tokens are known only from messages that report them: a graph with no messages channel has none to tell.
  const messages = messageChannels(run.trace.finalState).length > 0;
  return (
    <p className="gauges">
      <span className="gauge"><span className="gauge-name">Steps</span> <span className="gauge-value">{step ? `${step.step} of ${run.stepCount}` : run.stepCount}</span></span>
      {messages && <span className="gauge"><span className="gauge-name">Tokens</span> <span className="gauge-value">{tokens} <span className="muted">(usage_metadata of the messages)</span></span></span>}
    </p>
  );
}

function Messages({ channel, before, after }: { channel: string; before: ChatMessage[] | null; after: ChatMessage[] }) {
  const change = useMemo(() => diffMessages(before ?? [], after), [before, after]);
  const marks = useMemo(() => new Map<ChatMessage, 'added' | 'changed'>([...change.added.map((message) => [message, 'added'] as const), ...change.changed.map((message) => [message, 'changed'] as const)]), [change]);
  const tokens = after.reduce((sum, message) => sum + message.tokens, 0);
  return (
    <>
      <h4><Shown text={channel} />: {change.added.length} added{change.changed.length ? `, ${change.changed.length} changed` : ''}{change.removed.length ? `, ${change.removed.length} removed` : ''} by this step</h4>
      {change.added.length + change.changed.length > 0
        ? <Conversation messages={[...change.changed, ...change.added]} context={after} marks={marks} label={`Messages this step added to ${visibleText(channel)}`} />
        : <p className="muted">No message added or changed.</p>}
      <details open>
        <summary>The conversation after this step ({after.length} messages, {tokens} tokens)</summary>
        <Conversation messages={after} marks={marks} label={`Conversation in ${visibleText(channel)}`} />
      </details>
    </>
  );
}

/**
 * The branches that part where the step ran from (checkpoint children, as Studio shows them): the
 * one on screen, and each other one to show, or to compare with it.
 */
function Branches({ step }: { step: TraceStep }) {
  const thread = useServer((state) => state.thread);
  const parent = step.server?.parentCheckpoint;
  const branches = parent ? (thread?.branch?.forks[parent] ?? []) : [];
  if (branches.length === 0) return null;
  const busy = thread?.busy === true;
  return (
    <section aria-label={`Branches at step ${step.step}`}>
      <h4>{branches.length} branches part here</h4>
      <ol className="server-branches">
        {branches.map((branch, index) => {
          const here = branch.first === step.server?.checkpoint;
          const name = `branch ${index + 1}`;
          return (
            <li key={branch.first} aria-current={here}>
              {index === 0 ? 'as it ran' : branch.edited ? 'edited (a fork)' : 'run again'}{here ? ' · shown' : ''}{' '}
              {!here && (
                <>
                  <button type="button" disabled={busy} onClick={() => void serverController()?.showBranch(branch.head)}>Show {name}</button>{' '}
                  <button type="button" disabled={busy} onClick={() => void serverController()?.showBranch(branch.head, true)}>Compare with {name}</button>
                </>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function ServerStepView({ run, step }: { run: RunRecord; step: TraceStep }) {
  const index = step.step - 1;
  const after = useMemo(() => foreignStateAfter(run.trace.steps, index), [run, index]);
  const before = useMemo(() => foreignStateBefore(run.trace.steps, index), [run, index]);
  const server = step.server;
  const answers = useServer((state) => state.thread?.answers);
  const answer = server && answers && Object.hasOwn(answers, server.checkpoint) ? answers[server.checkpoint] : undefined;
  const channels = Object.keys({ ...before, ...after });
  const conversations = channels.flatMap((channel) => {
    const list = asMessages(after[channel], channel);
    return list ? [{ channel, list, before: asMessages(before[channel], channel) }] : [];
  });
  const others = diffStates(
    Object.fromEntries(Object.entries(before).filter(([key]) => !conversations.some((conversation) => conversation.channel === key))),
    Object.fromEntries(Object.entries(after).filter(([key]) => !conversations.some((conversation) => conversation.channel === key))),
  );
  return (
    <div className="step-view server-step">
      <h3>Step {step.step} · <Shown text={server?.name ?? step.node} /></h3>
      {server?.ns && <p>In the subgraph of <strong><Shown text={server.parent ?? ''} /></strong> · checkpoint namespace <code><Shown text={server.ns} /></code></p>}
      <p className="route" aria-label="Where it went"><Shown text={step.note === undefined ? '' : noteWords(step.note)} /></p>
      {server?.parallel && <p className="muted">Task {server.parallel.index} of {server.parallel.of} in this superstep (parallel branches, e.g. Send).</p>}
      {server?.edit && <p className="muted">Not a node's run: the state was edited on the server as <Shown text={server.name} /> (a fork), and the run went on from here.</p>}
      {server?.interrupts && <p>Waited on <code>interrupt()</code> with <code>{JSON.stringify(server.interrupts.length === 1 ? server.interrupts[0] : server.interrupts)}</code>, then went on with the answer{answer === undefined ? '.' : <>: <code aria-label="Answer given">{JSON.stringify(answer)}</code></>}</p>}
      {server?.error && <p className="warn">Failed: <Shown text={server.error} /></p>}
      <TaskOwn step={step} />
      <WhyRoute step={step} steps={run.trace.steps} graph={run.trace.graph} />
      <Branches step={step} />
      {conversations.map((conversation) => <Messages key={conversation.channel} channel={conversation.channel} before={conversation.before} after={conversation.list} />)}
      <h4>Other channels before → after</h4>
      <Diff changes={others} />
    </div>
  );
}

export function ServerStepDetail({ run, step }: { run: RunRecord; step: TraceStep | undefined }) {
  const runError = useApp((state) => state.runError);
  const dismiss = useApp((state) => state.dismissRunMessages);
  return (
    <>
      <RunState run={run} />
      <Known run={run} step={step} />
      {runError && (
        <div role="alert" className="run-alert">
          {runError} <button type="button" onClick={dismiss} aria-label="Dismiss run message">Dismiss</button>
        </div>
      )}
      {step ? <ServerStepView key={`${run.id}-${step.step}`} run={run} step={step} /> : <p className="muted">Select a step in the timeline.</p>}
      <BreakpointsPanel />
    </>
  );
}
