import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandWords, locateRouter, NO_SOURCE, returnedWords, routeWords } from './routerExplain.ts';

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

describe('a route and a Command in words, from the explanation as data', () => {
  it('says who returned what, with the source or where the name would come from', () => {
    const route = { node: 'callModel', returned: 'tools', input: {} };
    expect(routeWords({ ...route, router: null })).toBe('The router after callModel returned "tools"');
    expect(routeWords({ ...route, router: { missing: NO_SOURCE } })).toBe(`The router after callModel returned "tools"; ${NO_SOURCE}`);
    expect(routeWords({ ...route, router: { found: { name: 'routeModelOutput', file: 'reactAgent.ts', line: 35, text: '', returned: [37] } } })).toBe('routeModelOutput (reactAgent.ts) returned "tools" after callModel, at line 37');
    expect(routeWords({ ...route, router: { missing: 'toolsCondition is imported from x' } })).toBe('The router after callModel returned "tools"; toolsCondition is imported from x');
    expect(returnedWords([{ lg_name: 'Send', node: 'w', args: { subject: 'owls' } }, '__end__'])).toBe('[Send(w, {"subject":"owls"}), "__end__"]');
    expect(commandWords('supervisor', { goto: 'researcher', update: { turn: 2 } })).toBe('supervisor returned a Command: goto "researcher", update {"turn":2}');
  });
});
