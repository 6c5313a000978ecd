import { kindDefinition, own, type GraphFile, type GraphNode } from '../../graph/index.ts';
import { visibleText } from '../../graph/visible.ts';
import { useApp } from '../../store/index.ts';
import { skillPart, useOpenPart } from './openPart.ts';

const writesPlan = (node: GraphNode) => (kindDefinition(node.kind).writes as readonly string[]).includes('plan');

/** The nodes whose plan an Act runs: the planners with an edge into it, or, with none yet, every planner of the graph. */
const plannersOf = (graph: GraphFile, act: string) => {
  const planners = graph.nodes.filter(writesPlan);
  const feeding = planners.filter((node) => graph.edges.some((edge) => edge.source === node.id && edge.target === act));
  return feeding.length > 0 ? feeding : planners;
};

/** The skills the node puts in a plan (its kind's `planSkills`), and the field where they are chosen: its key and its label. */
const planSkillsOf = (node: GraphNode) => {
  const definition = kindDefinition(node.kind);
  const given = definition.planSkills as { field: string; skills: (config: unknown) => string[] } | undefined;
  if (!given) return { skills: [], key: '', label: '' };
  const label = definition.fields.find((candidate) => candidate.key === given.field)?.label ?? given.field;
  return { skills: given.skills(node.config), key: given.field, label: label.toLowerCase() };
};

/** A button that selects the node and opens its inspector at the field where it chooses plan skills. */
function OpenField({ node }: { node: GraphNode }) {
  const { open } = useOpenPart();
  const { key, label } = planSkillsOf(node);
  return (
    <button type="button" onClick={() => open({ nodes: [node.id], edges: [] }, key)}>
      Open {nameOf(node)}’s {label}
    </button>
  );
}

const nameOf = (node: GraphNode) => visibleText(node.label ?? node.id);

function SkillLinks({ names, skills }: { names: readonly string[]; skills: GraphFile['skills'] }) {
  const { open } = useOpenPart();
  return (
    <ul className="plan-skills">
      {names.map((name) => (
        <li key={name}>
          <button type="button" className="link" aria-label={`Settings of skill ${visibleText(name)}`} onClick={() => open({ nodes: [], edges: [] }, skillPart(name))}>
            {visibleText(name)}
          </button>{' '}
          <span className="muted">{own(skills, name)?.type ?? 'not defined'}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * For an Act with no skill of its own: where the skills it runs are chosen (the plans of the Reason
 * nodes before it, and the Recover rules that switch them), one click from it, and those skills,
 * each a link to its settings.
 */
export function PlanSkills({ act }: { act: string }) {
  const graph = useApp((state) => state.graph);
  const planners = plannersOf(graph, act);
  const skills = [...new Set(planners.flatMap((node) => planSkillsOf(node).skills))];
  // Nodes that do not make the plan but change its skills (a Recover's rules switch the next plan's).
  const switchers = graph.nodes.filter((node) => !writesPlan(node) && planSkillsOf(node).skills.length > 0);
  const switched = [...new Set(switchers.flatMap((node) => planSkillsOf(node).skills))];
  return (
    <section className="inspector-section" aria-label="Skills it runs">
      <h3>Skills it runs</h3>
      {planners.length === 0 ? (
        <p className="field-help">It runs the actions of the plan a Reason node makes, and the graph has none: add one from the palette and choose its skills under Plans by round.</p>
      ) : (
        <>
          <p className="field-help">It runs the actions of the plan {planners.map(nameOf).join(', ')} makes: their skills are chosen there.</p>
          {planners.map((planner) => <OpenField key={planner.id} node={planner} />)}
          {skills.length === 0 ? <p className="field-help">The plans call no skill yet.</p> : <SkillLinks names={skills} skills={graph.skills} />}
        </>
      )}
      {switchers.length > 0 && (
        <>
          <p className="field-help">After a failure, {switchers.map(nameOf).join(', ')} can switch the next plan to:</p>
          <SkillLinks names={switched} skills={graph.skills} />
          {switchers.map((switcher) => <OpenField key={switcher.id} node={switcher} />)}
        </>
      )}
    </section>
  );
}
