/**
 * What a step of a LangGraph agent's run says of its task and of why the run went where it went
 * (SPEC §8): a task's own input (a `Send`'s argument) and what it returned, its attempts, a
 * `Command` it returned, and each routing function that ran after it — the value it returned, the
 * state it was given and, where the agent's source is at hand (`loopscope open`), its name, its
 * source and the line that returned. The words are src/graph/reasonWords.ts's.
 */
import { useEffect, useState } from 'react';
import { visibleLines } from '../../graph/visible.ts';
import { reasonWords, returnedWords } from '../../graph/reasonWords.ts';
import { locateRouter, MAX_IMPORT_HOPS, NOT_STREAMED, routeReason, type RouteExplanation, type SourceImport } from '../../runtime/routerExplain.ts';
import { kbOf, ROUTE_CHANNEL_KEPT } from '../../runtime/serverEvents.ts';
import { foreignStateAfter } from '../../runtime/serverTrace.ts';
import type { TraceStep } from '../../runtime/trace.ts';
import { agentSourceOf, importedSourceOf, type SourceAnswer } from '../../server/agentSource.ts';
import { Shown } from '../../ui/Shown.tsx';

const Json = ({ value, label }: { value: unknown; label: string }) => <pre className="server-json" aria-label={label}>{visibleLines(JSON.stringify(value, null, 2) ?? String(value))}</pre>;

/** The task's own part of a superstep: what it was given (a Send's argument), what it returned, and whether the state shown is its superstep's. */
export function TaskOwn({ step }: { step: TraceStep }) {
  const server = step.server;
  if (!server) return null;
  const parallel = server.parallel;
  return (
    <>
      {server.send && server.input !== undefined && (
        <>
          <h4>Input (the Send argument)</h4>
          <Json value={server.input} label={`Input of step ${step.step}`} />
        </>
      )}
      {server.result !== undefined && parallel && (
        <>
          <h4>Returned (this task's own writes)</h4>
          <Json value={server.result} label={`Returned by step ${step.step}`} />
        </>
      )}
      {parallel && parallel.index < parallel.of && (
        <p className="muted">The tasks of a superstep write together once all have run: the change of state is shown on its last task ({parallel.of} of {parallel.of}).</p>
      )}
      {parallel && parallel.index === parallel.of && parallel.of > 1 && <p className="muted">The change of state below is the whole superstep's ({parallel.of} tasks, reducers applied).</p>}
      {step.attempts.length > 0 && (
        <>
          <h4>Attempts</h4>
          <ol className="server-attempts" aria-label={`Attempts of ${server.name}`}>
            {step.attempts.map((attempt) => (
              <li key={attempt.n}>attempt {attempt.n}: {attempt.outcome === 'ok' ? 'ran to its end' : <>failed — <Shown text={attempt.error ?? ''} /></>}</li>
            ))}
          </ol>
        </>
      )}
    </>
  );
}

function RouterSourceView({ explanation }: { explanation: RouteExplanation }) {
  const router = explanation.router;
  if (!router || !('found' in router)) return null;
  const { name, text, line, returned } = router.found;
  return (
    <pre className="server-source" aria-label={`Source of ${name ?? 'the inline router'}`}>
      {text.split('\n').map((code, index) => {
        const at = line + index;
        const mark = returned.includes(at);
        return (
          <span key={at} className={mark ? 'returned' : undefined} aria-current={mark ? 'true' : undefined}>
            <span className="server-source-n">{at}</span> <Shown text={code} />{'\n'}
          </span>
        );
      })}
    </pre>
  );
}

/** The files of the folder read for a router's imports, by importing file and specifier. */
type Imports = Map<string, SourceAnswer>;
const importKey = (wanted: SourceImport) => `${wanted.from}\n${wanted.specifier}`;
const lookupIn = (imports: Imports) => (wanted: SourceImport) => {
  const file = imports.get(importKey(wanted));
  return file && 'source' in file ? file.source : undefined;
};

/**
 * A router's input kept without its long channels: how much was left out, and the whole state on
 * demand, from the step's own state (the state after its superstep's writes, which the router read).
 */
function FullState({ step, steps, leftOut }: { step: TraceStep; steps: readonly TraceStep[]; leftOut: number }) {
  const [shown, setShown] = useState(false);
  return (
    <>
      <p className="muted">Channels longer than {ROUTE_CHANNEL_KEPT} characters are left out here, {kbOf(leftOut)} KB in all: the step's state holds them.</p>
      {shown
        ? <Json value={foreignStateAfter(steps, step.step - 1)} label={`State after step ${step.step}`} />
        : <button type="button" onClick={() => setShown(true)}>Show the full state after step {step.step}</button>}
    </>
  );
}

/** Why the run went on where it did after this step: each router's run, and a Command. */
export function WhyRoute({ step, steps, graph }: { step: TraceStep; steps: readonly TraceStep[]; graph: string }) {
  const server = step.server;
  const routes = server?.routes ?? [];
  const [read, setRead] = useState<{ answer: SourceAnswer; imports: Imports } | null>(null);
  const node = server?.name ?? '';
  const first = routes[0]?.returned;
  useEffect(() => {
    if (routes.length === 0) return;
    let current = true;
    void (async () => {
      const answer = await agentSourceOf(graph);
      // The router may be in a file the graph's file imports (and that one in another): each read in turn, as the search asks for it.
      const imports: Imports = new Map();
      for (let hop = 0; 'source' in answer && hop < MAX_IMPORT_HOPS; hop += 1) {
        const found = locateRouter(answer.source, node, first, lookupIn(imports));
        if (!('needs' in found)) break;
        const file = await importedSourceOf(graph, found.needs);
        imports.set(importKey(found.needs), file);
        if ('missing' in file) break;
      }
      if (current) setRead({ answer, imports });
    })();
    return () => {
      current = false;
    };
  }, [graph, node, first, routes.length]);
  /** Where the source tells of the router that returned `returned`; null while it is being read. */
  const routerOf = (returned: unknown): RouteExplanation['router'] => {
    if (read === null) return null;
    if ('missing' in read.answer) return { missing: read.answer.missing };
    const found = locateRouter(read.answer.source, node, returned, lookupIn(read.imports));
    if (!('needs' in found)) return found;
    const file = read.imports.get(importKey(found.needs));
    return file && 'missing' in file ? { missing: file.missing } : null;
  };
  if (!server) return null;
  if (routes.length === 0 && !server.command) {
    // A thread read from its history: its checkpoints keep where the run went, not what the router returned.
    return server.conditional && server.chose.length > 0 && !server.edit
      ? <p className="muted">{NOT_STREAMED}</p>
      : null;
  }
  const explanations: RouteExplanation[] = routes.map((route) => ({
    node: server.name, returned: route.returned, input: route.input, ...(route.leftOut ? { leftOut: route.leftOut } : {}),
    router: routerOf(route.returned),
  }));
  return (
    <section aria-label="Why it went there">
      <h4>Why it went there</h4>
      {server.command && <p className="route-why"><Shown text={reasonWords({ is: 'command', node: server.name, ...server.command })} /></p>}
      {explanations.map((explanation, index) => (
        <div key={index} className="route-why">
          <p><Shown text={reasonWords(routeReason(explanation))} /></p>
          <p>Returned: <code><Shown text={returnedWords(explanation.returned)} /></code></p>
          <RouterSourceView explanation={explanation} />
          <details>
            <summary>The state the router was given</summary>
            <Json value={explanation.input} label={`State given to the router after ${server.name}`} />
            {explanation.leftOut && <FullState step={step} steps={steps} leftOut={explanation.leftOut} />}
          </details>
        </div>
      ))}
    </section>
  );
}
