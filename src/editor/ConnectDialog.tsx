import { useState } from 'react';
import { connect, kindDefinition, type GraphNode } from '../graph/index.ts';
import { visibleText } from '../graph/visible.ts';
import { useApp } from '../store/index.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { nodeChoiceName } from './nodeChoice.ts';

const ALWAYS = '';

/**
 * Connecting without a mouse: from the selected node (C), choose the outcome the edge leaves on and
 * the node it goes to. One undoable edit; the new edge is selected, so its condition can be set next.
 */
export function ConnectDialog({ source, onClose }: { source: GraphNode; onClose: () => void }) {
  const nodes = useApp((state) => state.graph.nodes);
  const definition = kindDefinition(source.kind);
  const targets = nodes.filter((node) => node.id !== source.id);
  const [outcome, setOutcome] = useState<string>(definition.outcomes[0] ?? ALWAYS);
  const [target, setTarget] = useState(targets[0]?.id ?? source.id);
  const name = visibleText(source.label ?? source.id);
  return (
    <Dialog title={`Connect from ${name}`} onClose={onClose}>
      {definition.terminal ? (
        <p>A {definition.title} node ends the run: no edge leaves it.</p>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const { edit, select } = useApp.getState();
            let added: string | null = null;
            edit((graph) => {
              const next = connect(graph, source.id, target, outcome || null);
              added = next === graph ? null : (next.edges.at(-1)?.id ?? null);
              return next;
            });
            if (added) select({ nodes: [], edges: [added] });
            onClose();
          }}
        >
          <label className="stack">
            Leaves on
            <select value={outcome} onChange={(event) => setOutcome(event.target.value)} data-autofocus>
              {definition.outcomes.map((candidate) => (
                <option key={candidate} value={candidate}>outcome {candidate}</option>
              ))}
              <option value={ALWAYS}>always (set a condition in the inspector)</option>
            </select>
          </label>
          <label className="stack">
            Goes to
            <select value={target} onChange={(event) => setTarget(event.target.value)}>
              {targets.map((node) => (
                <option key={node.id} value={node.id}>{nodeChoiceName(node)}</option>
              ))}
              <option value={source.id}>{name} itself</option>
            </select>
          </label>
          <div className="dialog-actions">
            <button type="submit">Connect</button>
            <button type="button" onClick={onClose}>Cancel</button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
