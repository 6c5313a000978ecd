import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reasonWords, returnedWords } from '../graph/reasonWords.ts';
import { locateRouter, MAX_IMPORT_HOPS, NO_SOURCE, routeReason, type AgentSource, type RouteExplanation, type SourceImport } from './routerExplain.ts';

const routeWords = (explanation: RouteExplanation) => reasonWords(routeReason(explanation));

const fixture = (file: string) => ({ graph: file, file, text: readFileSync(new URL(`./fixtures/langgraph/${file}`, import.meta.url), 'utf8') });
const lineOf = (text: string, words: string) => text.split('\n').findIndex((line) => line.includes(words)) + 1;

describe('the routing function of a conditional edge, found in the agent\'s source as text', () => {
  it('names a function declared in the file, with its source and the line that returned the value', () => {
    const source = fixture('reactAgent.ts');
    const found = locateRouter(source, 'callModel', 'tools');
    expect(found).toEqual({ found: expect.objectContaining({ name: 'routeModelOutput', file: 'reactAgent.ts', line: lineOf(source.text, 'function routeModelOutput'), returned: [lineOf(source.text, "? 'tools' : '__end__'")] }) });
    expect('found' in found && found.found.text).toMatch(/^function routeModelOutput\(state[^]*\n}$/);
  });

  it('picks the return that builds Sends for a router that returned Sends', () => {
    const source = fixture('mapReduceGraph.ts');
    const found = locateRouter(source, 'generateTopics', [{ lg_name: 'Send', node: 'generateJoke', args: { subject: 'lions' } }]);
    expect(found).toMatchObject({ found: { name: 'continueToJokes', returned: [lineOf(source.text, "new Send('generateJoke'")] } });
  });

  it('says a router imported from a package has no source in the folder, and where it comes from', () => {
    expect(locateRouter(fixture('guardedAgent.ts'), 'callModel', 'tools')).toEqual({ missing: 'toolsCondition is imported from @langchain/langgraph/prebuilt: its source is not in the agent\'s folder' });
  });

  it('reads an inline arrow, const routers, END, and skips calls in comments and strings; never a node it does not leave', () => {
    const text = [
      "// .addConditionalEdges('a', wrong)",
      "const label = \".addConditionalEdges('a', alsoWrong)\";",
      'const pick = (state) => {',
      "  if (state.n > 2) return END;",
      "  return 'b';",
      '};',
      'export const graph = new StateGraph(State)',
      "  .addConditionalEdges('a', pick)",
      "  .addConditionalEdges(START, (state) => state.go ? 'a' : 'b')",
      '  .compile();',
    ].join('\n');
    const source = { graph: 'g', file: 'g.ts', text };
    expect(locateRouter(source, 'a', '__end__')).toMatchObject({ found: { name: 'pick', line: 3, returned: [4] } });
    expect(locateRouter(source, 'a', 'b')).toMatchObject({ found: { name: 'pick', returned: [5] } });
    expect(locateRouter(source, '__start__', 'a')).toMatchObject({ found: { name: null, line: 9, text: "(state) => state.go ? 'a' : 'b'", returned: [9] } });
    expect(locateRouter(source, 'b', 'a')).toEqual({ missing: "g.ts has no addConditionalEdges call for the node b: the router may be added elsewhere (another file, a helper)" });
    expect(locateRouter({ ...source, text: "g.addConditionalEdges('a', ghost)" }, 'a', 'b')).toEqual({ missing: 'ghost is not defined in g.ts' });
  });
});

describe('a routing function in another file of the folder, followed by its relative imports', () => {
  /** An agent's folder, as the page reads it a file at a time: `./x.js` is `x.ts`, as TypeScript resolves it. */
  const folder: Record<string, string> = {
    'src/agent.ts': [
      "import { END, START, StateGraph } from '@langchain/langgraph';",
      "import { routeQuestion } from './routing/index.js';",
      "import pickTool, { other as renamed } from './tools.js';",
      'export const graph = new StateGraph(State)',
      "  .addConditionalEdges('classify', routeQuestion, { math: 'math', chat: 'chat' })",
      "  .addConditionalEdges('agent', pickTool)",
      "  .addConditionalEdges('other', renamed)",
      "  .addConditionalEdges('ghost', missingOne)",
      '  .compile();',
    ].join('\n'),
    'src/routing/index.ts': "export { routeQuestion } from '../router.js';\n",
    'src/router.ts': ['/** Digits go to math. */', 'export function routeQuestion(state) {', '  if (/\\d/.test(state.question)) {', "    return 'math';", '  }', "  return 'chat';", '}'].join('\n'),
    'src/tools.ts': ["export default function pickTool(state) {", "  return state.done ? END : 'tools';", '}', "export const other = (state) => 'x';"].join('\n'),
  };
  const resolved = (wanted: SourceImport) => {
    const parts = [...wanted.from.split('/').slice(0, -1), ...wanted.specifier.split('/')];
    const path: string[] = [];
    for (const part of parts) if (part === '..') path.pop(); else if (part !== '.') path.push(part);
    const file = path.join('/').replace(/\.js$/, '.ts');
    return folder[file] === undefined ? undefined : { graph: 'g', file, text: folder[file] };
  };
  const agent: AgentSource = { graph: 'g', file: 'src/agent.ts', text: folder['src/agent.ts'] };

  it('asks for the file a router is imported from, then finds it there, through a re-export', () => {
    expect(locateRouter(agent, 'classify', 'math')).toEqual({ needs: { from: 'src/agent.ts', specifier: './routing/index.js' } });
    const read: SourceImport[] = [];
    const found = locateRouter(agent, 'classify', 'math', (wanted) => {
      read.push(wanted);
      return resolved(wanted);
    });
    expect(read).toEqual([{ from: 'src/agent.ts', specifier: './routing/index.js' }, { from: 'src/routing/index.ts', specifier: '../router.js' }]);
    expect(found).toEqual({ found: { name: 'routeQuestion', file: 'src/router.ts', line: 2, text: folder['src/router.ts'].split('\n').slice(1).join('\n').replace('export ', ''), returned: [4] } });
    expect(locateRouter(agent, 'classify', 'chat', resolved)).toMatchObject({ found: { returned: [6] } });
  });

  it('follows a default import and a renamed one to the name they have in their file', () => {
    expect(locateRouter(agent, 'agent', '__end__', resolved)).toMatchObject({ found: { name: 'pickTool', file: 'src/tools.ts', line: 1, returned: [2] } });
    expect(locateRouter(agent, 'other', 'x', resolved)).toMatchObject({ found: { name: 'other', file: 'src/tools.ts', line: 4 } });
  });

  it('says why not when the name is nowhere, or the imports go round', () => {
    expect(locateRouter(agent, 'ghost', 'x', resolved)).toEqual({ missing: 'missingOne is not defined in src/agent.ts' });
    const loop = (wanted: SourceImport) => ({ graph: 'g', file: wanted.specifier.slice(2), text: "export { routeQuestion } from './again.js';" });
    expect(locateRouter(agent, 'classify', 'math', loop)).toEqual({ missing: `routeQuestion is imported through more than ${MAX_IMPORT_HOPS} files from again.js: Loopscope follows ${MAX_IMPORT_HOPS}` });
  });
});

describe('a route and a Command in words, from the explanation as data', () => {
  it('says who returned what, with the source or where the name would come from', () => {
    const route = { node: 'callModel', returned: 'tools', input: {} };
    expect(routeWords({ ...route, router: null })).toBe('The router after callModel returned "tools"');
    expect(routeWords({ ...route, router: { missing: NO_SOURCE } })).toBe(`The router after callModel returned "tools"; ${NO_SOURCE}`);
    expect(routeWords({ ...route, router: { found: { name: 'routeModelOutput', file: 'reactAgent.ts', line: 35, text: '', returned: [37] } } })).toBe('routeModelOutput (reactAgent.ts) returned "tools" after callModel, at line 37');
    expect(routeWords({ ...route, router: { missing: 'toolsCondition is imported from x' } })).toBe('The router after callModel returned "tools"; toolsCondition is imported from x');
    expect(returnedWords([{ lg_name: 'Send', node: 'w', args: { subject: 'owls' } }, '__end__'])).toBe('[Send(w, {"subject":"owls"}), "__end__"]');
    expect(reasonWords({ is: 'command', node: 'supervisor', goto: 'researcher', update: { turn: 2 } })).toBe('supervisor returned a Command: goto "researcher", update {"turn":2}');
  });
});
