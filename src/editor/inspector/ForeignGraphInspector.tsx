import { visibleText } from '../../graph/visible.ts';
import type { ForeignGraph } from '../../store/index.ts';

/**
 * What the inspector says of a graph on a LangGraph server that Loopscope did not make, in place of
 * the graph settings of its stand-in document: which graph it is, where it runs, that it is read
 * here and changed in its own code, and how to get back to a Loopscope graph.
 */
export function ForeignGraphInspector({ graph, name }: { graph: ForeignGraph; name: string }) {
  return (
    <div className="inspector-body">
      <p className="inspector-kind">LangGraph graph (read-only here)</p>
      <dl className="foreign-graph">
        <dt>Graph</dt>
        <dd><code>{visibleText(name)}</code></dd>
        <dt>Assistant</dt>
        <dd><code>{visibleText(graph.assistantId)}</code></dd>
        <dt>Runs on</dt>
        <dd><code>{graph.origin}</code></dd>
      </dl>
      <p className="field-help">
        A graph of LangGraph code on that server, not a Loopscope graph: it is drawn from the server's description while
        connected to it (<strong>Connect to a LangGraph server</strong>, in the run toolbar), and run, stepped and forked there.
        It has no Loopscope settings, nodes or checks here; change it in its code.
      </p>
      <p className="field-help">
        Back to a Loopscope graph: <strong>Graphs</strong> opens one of yours or a template; <strong>New graph</strong> starts one.
      </p>
    </div>
  );
}
