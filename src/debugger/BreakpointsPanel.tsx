import { useMemo, useState } from 'react';
import type { GraphNode } from '../graph/schema.ts';
import { visibleText } from '../graph/visible.ts';
import { useServer } from '../server/langgraphServer.ts';
import { useApp } from '../store/index.ts';
import { foreignOf } from '../store/graphSlice.ts';
import { describeCondition } from '../runtime/pauseRules.ts';
import type { BreakCondition } from '../store/runSlice.ts';
import { CloseIcon } from '../ui/icons.tsx';
import { LazySelect, type Choice } from '../ui/LazySelect.tsx';
import { Shown } from '../ui/Shown.tsx';

const BreakpointDot = () => <span className="breakpoint-dot" aria-hidden="true" />;

type ConditionType = BreakCondition['type'];

const CHOOSE = [{ value: '', label: '(choose)' }];

const CONDITION_CHOICES: { type: ConditionType; label: string }[] = [
  { type: 'tokens_percent', label: 'tokens pass N% of the budget' },
  { type: 'round', label: 'round reaches N' },
  { type: 'attempt_failed', label: 'an attempt fails' },
];

/**
 * The nodes as choices, the same list as last time while every node keeps its id and name: a drag
 * move replaces a node on each frame, and the panel need not redraw nor compare whole new lists.
 */
let lastNodeChoices: { nodes: readonly GraphNode[]; choices: Choice[] } = { nodes: [], choices: [] };
const nodeChoicesOf = (nodes: readonly GraphNode[]): Choice[] => {
  const last = lastNodeChoices;
  if (last.nodes === nodes) return last.choices;
  const same = last.choices.length === nodes.length && nodes.every((node, index) => last.choices[index].value === node.id && last.choices[index].label === (node.label ?? node.id));
  lastNodeChoices = { nodes, choices: same ? last.choices : nodes.map((node) => ({ value: node.id, label: node.label ?? node.id })) };
  return lastNodeChoices.choices;
};

/**
 * A LangGraph graph drawn from its server: its breakpoints are the nodes set on its canvas, which a
 * run started from the page pauses before (`interruptBefore`); the server knows no others.
 */
function ServerBreakpoints() {
  const nodes = useServer((state) => state.breakpoints);
  const remove = (name: string) => useServer.setState({ breakpoints: useServer.getState().breakpoints.filter((other) => other !== name) });
  return (
    <section className="breakpoints" aria-label="Breakpoints">
      <h3>Breakpoints</h3>
      <ul>
        {nodes.map((name) => (
          <li key={name}><BreakpointDot /> before node <code><Shown text={name} /></code> runs on the server (interruptBefore) <button type="button" aria-label={`Remove breakpoint on node ${visibleText(name)}`} onClick={() => remove(name)}><CloseIcon size={14} aria-hidden="true" /></button></li>
        ))}
        {nodes.length === 0 && <li className="muted">None. Set one on a node of the LangGraph graph: runs started from the page pause before it.</li>}
      </ul>
    </section>
  );
}

/** Breakpoints set on the canvas or here, and conditions on the run's numbers. */
export function BreakpointsPanel() {
  const foreign = useApp((state) => foreignOf(state.documentId) !== null);
  return foreign ? <ServerBreakpoints /> : <GraphBreakpoints />;
}

function GraphBreakpoints() {
  const breakpoints = useApp((state) => state.breakpoints);
  const nodeChoices = useApp((state) => nodeChoicesOf(state.graph.nodes));
  const edges = useApp((state) => state.graph.edges);
  const edgeChoices = useMemo(() => edges.map((candidate) => ({ value: candidate.id, label: `${candidate.id}: ${candidate.source} → ${candidate.target}` })), [edges]);
  const toggleNode = useApp((state) => state.toggleNodeBreakpoint);
  const toggleEdge = useApp((state) => state.toggleEdgeBreakpoint);
  const addCondition = useApp((state) => state.addCondition);
  const removeCondition = useApp((state) => state.removeCondition);
  const [node, setNode] = useState('');
  const [edge, setEdge] = useState('');
  const [type, setType] = useState<ConditionType>('tokens_percent');
  const [amount, setAmount] = useState(80);

  const add = () => {
    if (type === 'attempt_failed') addCondition({ type });
    else if (type === 'round') addCondition({ type, round: Math.max(1, Math.round(amount)) });
    else addCondition({ type, percent: Math.min(100, Math.max(1, amount)) });
  };
  const empty = breakpoints.nodes.length + breakpoints.edges.length + breakpoints.conditions.length === 0;

  return (
    <section className="breakpoints" aria-label="Breakpoints">
      <h3>Breakpoints</h3>
      <ul>
        {breakpoints.nodes.map((id) => (
          <li key={`n-${id}`}><BreakpointDot /> before node <code>{id}</code> runs <button type="button" aria-label={`Remove breakpoint on node ${id}`} onClick={() => toggleNode(id)}><CloseIcon size={14} aria-hidden="true" /></button></li>
        ))}
        {breakpoints.edges.map((id) => (
          <li key={`e-${id}`}><BreakpointDot /> when edge <code>{id}</code> fires <button type="button" aria-label={`Remove breakpoint on edge ${id}`} onClick={() => toggleEdge(id)}><CloseIcon size={14} aria-hidden="true" /></button></li>
        ))}
        {breakpoints.conditions.map((condition, index) => (
          <li key={`c-${index}`}><BreakpointDot /> when {describeCondition(condition)} <button type="button" aria-label={`Remove condition ${describeCondition(condition)}`} onClick={() => removeCondition(index)}><CloseIcon size={14} aria-hidden="true" /></button></li>
        ))}
        {empty && <li className="muted">None. Set one on a node or edge of the canvas, or below.</li>}
      </ul>
      <div className="bp-add">
        <label>
          Node
          <LazySelect value={node} onChange={(event) => setNode(event.target.value)} fixed={CHOOSE} choices={nodeChoices} />
        </label>
        <button type="button" disabled={!node || breakpoints.nodes.includes(node)} onClick={() => toggleNode(node)}>Break before node</button>
      </div>
      <div className="bp-add">
        <label>
          Edge
          <LazySelect value={edge} onChange={(event) => setEdge(event.target.value)} fixed={CHOOSE} choices={edgeChoices} />
        </label>
        <button type="button" disabled={!edge || breakpoints.edges.includes(edge)} onClick={() => toggleEdge(edge)}>Break when edge fires</button>
      </div>
      <div className="bp-add">
        <label>
          Condition
          <select value={type} onChange={(event) => setType(event.target.value as ConditionType)}>
            {CONDITION_CHOICES.map((choice) => <option key={choice.type} value={choice.type}>{choice.label}</option>)}
          </select>
        </label>
        {type !== 'attempt_failed' && (
          <label>
            N
            <input type="number" className="bp-amount" value={amount} min={1} onChange={(event) => setAmount(Number(event.target.value))} />
          </label>
        )}
        <button type="button" onClick={add}>Add condition</button>
      </div>
    </section>
  );
}
