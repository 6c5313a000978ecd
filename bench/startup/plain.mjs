// The start-up baseline of `npm run bench`: the loop of one-round.json (plan → act → verify →
// done, one mock record, enough after one round) written as a plain LangGraph script, run once
// and printed a line a step, as `loopscope run` prints its timeline.
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';

const State = Annotation.Root({
  round: Annotation(), steps: Annotation(), tokensUsed: Annotation(), plan: Annotation(), results: Annotation(), evaluation: Annotation(), response: Annotation(),
});
const graph = new StateGraph(State)
  .addNode('planner', (state) => ({ steps: state.steps + 1, plan: { actions: [{ skill: 'probe', args: {} }] } }))
  .addNode('act', (state) => ({ steps: state.steps + 1, tokensUsed: state.tokensUsed + 1, results: [{ skill: 'probe', outcome: 'ok', records: [{ seen: true }] }] }))
  .addNode('verify', (state) => ({ steps: state.steps + 1, evaluation: { outcome: state.results[0].records.length >= 1 ? 'sufficient' : 'insufficient' } }))
  .addNode('done', (state) => ({ steps: state.steps + 1, response: { text: `${state.results[0].records.length} record(s)` } }))
  .addEdge(START, 'planner')
  .addEdge('planner', 'act')
  .addEdge('act', 'verify')
  .addConditionalEdges('verify', (state) => (state.evaluation.outcome === 'sufficient' ? 'done' : 'planner'), ['done', 'planner'])
  .addEdge('done', END)
  .compile();

let step = 0;
for await (const update of await graph.stream({ round: 1, steps: 0, tokensUsed: 0, results: [] }, { streamMode: 'updates' }))
  for (const node of Object.keys(update)) console.log(`${(step += 1)}  round 1  ${node}`);
