import { kindDefinition, own, type GraphFile, type GraphNode } from '../../graph/index.ts';
import { visibleText } from '../../graph/visible.ts';
import { useApp } from '../../store/index.ts';
import { skillPart, useOpenPart } from './openPart.ts';

/** The nodes whose plan an Act runs: the planners with an edge into it, or, with none yet, every planner of the graph. */
const plannersOf = (graph: GraphFile, act: string) => {
  const planners = graph.nodes.filter((node) => (kindDefinition(node.kind).writes as readonly string[]).includes('plan'));
  const feeding = planners.filter((node) => graph.edges.some((edge) => edge.source === node.id && edge.target === act));
  return feeding.length > 0 ? feeding : planners;
};

/** The skills a planner's scripted plans call, each once, in the order they first come. */
const planSkills = (node: GraphNode): string[] =>
  node.kind === 'reason' && node.config.planner === 'scripted' ? [...new Set(node.config.plans.flatMap((plan) => plan.actions.map((action) => action.skill)))] : [];

/** The skills a Recover node's rules switch the next plan to. */
const recoverySkills = (node: GraphNode): string[] =>
  node.kind === 'recover' ? [...new Set(node.config.rules.flatMap((rule) => (rule.skill ? [rule.skill] : [])))] : [];

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
  const { open } = useOpenPart();
  const planners = plannersOf(graph, act);
  const skills = [...new Set(planners.flatMap(planSkills))];
  const recoverers = graph.nodes.filter((node) => recoverySkills(node).length > 0);
  const switched = [...new Set(recoverers.flatMap(recoverySkills))];
  return (
    <section className="inspector-section" aria-label="Skills it runs">
      <h3>Skills it runs</h3>
      {planners.length === 0 ? (
        <p className="field-help">It runs the actions of the plan a Reason node makes, and the graph has none: add one from the palette and choose its skills under Plans by round.</p>
      ) : (
        <>
          <p className="field-help">It runs the actions of the plan {planners.map(nameOf).join(', ')} makes: their skills are chosen there, under Plans by round.</p>
          {planners.map((planner) => (
            <button key={planner.id} type="button" onClick={() => open({ nodes: [planner.id], edges: [] }, 'plans')}>
              Open {nameOf(planner)}’s plans
            </button>
          ))}
          {skills.length === 0 ? <p className="field-help">The plans call no skill yet.</p> : <SkillLinks names={skills} skills={graph.skills} />}
        </>
      )}
      {recoverers.length > 0 && (
        <>
          <p className="field-help">After a failure, {recoverers.map(nameOf).join(', ')} can switch the next plan to:</p>
          <SkillLinks names={switched} skills={graph.skills} />
          {recoverers.map((recoverer) => (
            <button key={recoverer.id} type="button" onClick={() => open({ nodes: [recoverer.id], edges: [] }, 'rules')}>
              Open {nameOf(recoverer)}’s rules
            </button>
          ))}
        </>
      )}
    </section>
  );
}
