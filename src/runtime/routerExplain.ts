/**
 * Why a conditional edge of a LangGraph agent fired, for code the person did not write (SPEC §8):
 * the value the routing function returned and the state it was given (the server's event stream,
 * serverEvents.ts), and, where the agent's source is at hand (`loopscope open` on its folder, whose
 * `langgraph.json` names the file), the function's name, its source and the line that returned.
 *
 * The source is only ever read as text: the `addConditionalEdges` call of the node names the
 * router, its definition is found by its name in the same file, or in the file of the folder it is
 * imported from (relative imports, followed; the page reads each file), and the `return`s that can give the
 * value returned are picked by what they say. Nothing of it is evaluated. The explanation is data
 * (`RouteExplanation`, as a reason `routeReason`), worded by src/graph/reasonWords.ts.
 */
import type { Reason } from '../graph/reason.ts';
import { isSend } from '../graph/reasonWords.ts';

/** The agent's source file as `loopscope open` hands it to the page (src/cli/langgraphSource.ts). */
export interface AgentSource {
  graph: string;
  /** The file, as `langgraph.json` names it (relative to the folder). */
  file: string;
  text: string;
}

export interface RouterSource {
  /** The routing function's name; null for a function written inline in the call. */
  name: string | null;
  file: string;
  /** Its first line in the file (1-based) and its text. */
  line: number;
  text: string;
  /** The lines (1-based, in the file) of the `return`s that can have given the value; all of them when none says it. */
  returned: number[];
}

/**
 * What the source told of a router: found, missing (and why), or in a file of the folder the
 * graph's file imports it from (`needs`: that file is to be read, then looked in again).
 */
export type RouterFound = { found: RouterSource } | { missing: string } | { needs: SourceImport };

/** A relative import of a source file (`./router.js` in `src/agent.ts`), to be read from the folder. */
export interface SourceImport {
  /** The importing file, relative to the folder. */
  from: string;
  specifier: string;
}

/** The files of the folder read so far for a router's import, by importing file and specifier. */
export type ImportedSources = (wanted: SourceImport) => AgentSource | undefined;

/** Relative imports followed from the graph's file at most (a re-export's re-export…). */
export const MAX_IMPORT_HOPS = 4;

export interface RouteExplanation {
  node: string;
  returned: unknown;
  input: unknown;
  /** Characters of the state left out of `input` (serverEvents.ts keptInput), if any. */
  leftOut?: number;
  /** Where the source told of the router; null while it is being read. */
  router: RouterFound | null;
}


/**
 * The text with what is not code blanked out (comments, and the insides of strings and template
 * literals), its length and lines unchanged: brackets and keywords found in it are code's own.
 */
const codeOnly = (text: string): string => {
  const out = [...text];
  let at = 0;
  const blank = (from: number, to: number) => {
    for (let index = from; index < to; index += 1) if (out[index] !== '\n') out[index] = ' ';
  };
  while (at < text.length) {
    const char = text[at];
    if (char === '/' && text[at + 1] === '/') {
      const end = text.indexOf('\n', at);
      const stop = end < 0 ? text.length : end;
      blank(at, stop);
      at = stop;
    } else if (char === '/' && text[at + 1] === '*') {
      const end = text.indexOf('*/', at + 2);
      const stop = end < 0 ? text.length : end + 2;
      blank(at, stop);
      at = stop;
    } else if (char === '"' || char === "'" || char === '`') {
      let end = at + 1;
      while (end < text.length && text[end] !== char) end += text[end] === '\\' ? 2 : 1;
      blank(at + 1, Math.min(end, text.length));
      at = end + 1;
    } else at += 1;
  }
  return out.join('');
};

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The index just past the bracket that closes the one at `open` (in code-only text), or the text's end. */
const closing = (code: string, open: number): number => {
  let depth = 0;
  for (let index = open; index < code.length; index += 1) {
    if ('([{'.includes(code[index])) depth += 1;
    else if (')]}'.includes(code[index])) {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return code.length;
};

/** Where an expression that starts at `from` ends: the first `,` `;` or closing bracket at its own depth. */
const expressionEnd = (code: string, from: number): number => {
  let depth = 0;
  for (let index = from; index < code.length; index += 1) {
    const char = code[index];
    if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) {
      if (depth === 0) return index;
      depth -= 1;
    } else if (depth === 0 && (char === ',' || char === ';')) return index;
  }
  return code.length;
};

const escaped = (name: string) => name.replace(/[$]/g, '\\$');
const NAME = '[A-Za-z_$][\\w$]*';
/** The names a node may be given in code besides a string: LangGraph's constants. */
const CONSTANTS: Record<string, string> = { START: '__start__', END: '__end__' };

/** The `addConditionalEdges` call that leaves `node`: where its router argument starts, and ends. */
const conditionalCall = (text: string, code: string, node: string): { from: number; to: number } | null => {
  const call = /\.addConditionalEdges\s*\(/g;
  for (let match = call.exec(code); match; match = call.exec(code)) {
    const argument = match.index + match[0].length;
    const firstEnd = expressionEnd(code, argument);
    const first = text.slice(argument, firstEnd).trim();
    const named = /^(['"`])(.*)\1$/s.exec(first)?.[2] ?? CONSTANTS[first];
    if (named !== node || code[firstEnd] !== ',') continue;
    const from = firstEnd + 1 + (code.slice(firstEnd + 1).length - code.slice(firstEnd + 1).trimStart().length);
    return { from, to: expressionEnd(code, from) };
  }
  return null;
};

/** Where a function named `name` is defined in the file (`function name(`, `const name =`): its start and end. */
const definition = (code: string, name: string): { from: number; to: number } | null => {
  const declared = new RegExp(`(?<![\\w$.])(?:async\\s+)?function\\s*\\*?\\s*${escaped(name)}\\s*\\(`).exec(code);
  if (declared) {
    const body = code.indexOf('{', closing(code, declared.index + declared[0].length - 1));
    return { from: declared.index, to: body < 0 ? code.length : closing(code, body) };
  }
  const bound = new RegExp(`(?<![\\w$.])(?:const|let|var)\\s+${escaped(name)}\\b[^=]*=`).exec(code);
  return bound && { from: bound.index, to: expressionEnd(code, bound.index + bound[0].length) };
};

/**
 * Where a name comes from (`import { toolsCondition } from '@langchain/langgraph/prebuilt'`, `export { route } from './router.js'`),
 * if it is imported or re-exported: the module, and the name it has there (`import { a as b }`: `a`; a default import: `default`).
 */
const importedFrom = (text: string, code: string, name: string): { module: string; original: string } | null => {
  const statement = /(?:import|export)\s+(?:type\s+)?([^;]*?)\s+from\s*(['"])/g;
  for (let match = statement.exec(code); match; match = statement.exec(code)) {
    const braced = /\{([^}]*)\}/.exec(match[1]);
    const pairs = (braced ? braced[1].split(',') : []).map((part) => part.trim().split(/\s+as\s+/)).filter((pair) => pair[0]);
    const fromBraces = pairs.find((pair) => (pair[1] ?? pair[0]) === name);
    const defaulted = new RegExp(`^${escaped(name)}\\b`).test(match[1].trim()) && !match[1].trim().startsWith('{');
    if (!fromBraces && !defaulted) continue;
    const quote = match.index + match[0].length;
    return { module: text.slice(quote, text.indexOf(match[2], quote)), original: fromBraces ? fromBraces[0] : 'default' };
  }
  return null;
};

/** The name a file's default export has (`export default function pick(`, `export default pick`), if it has one. */
const defaultExportName = (code: string): string | null => new RegExp(`export\\s+default\\s+(?:async\\s+)?(?:function\\s*\\*?\\s*)?(${NAME})`).exec(code)?.[1] ?? null;

/** The words a `return` that gave `returned` would hold in its source: the name as a string or constant, `Send`. */
const saysReturned = (returned: unknown): ((line: string) => boolean) => {
  const values = (Array.isArray(returned) ? returned : [returned]);
  if (values.some(isSend)) return (line) => /\bSend\b/.test(line);
  const wanted = values.filter((value): value is string => typeof value === 'string');
  return (line) => wanted.some((value) => ['"', "'", '`'].some((quote) => line.includes(`${quote}${value}${quote}`)) || Object.entries(CONSTANTS).some(([constant, meant]) => meant === value && new RegExp(`\\b${constant}\\b`).test(line)));
};

/**
 * The routing function of the conditional edge leaving `node`, found in the agent's source, with
 * the `return`s that can have given `returned`; or why it is not there.
 */
export const locateRouter = (source: AgentSource, node: string, returned: unknown, imported: ImportedSources = () => undefined): RouterFound => {
  const { text, file } = source;
  const code = codeOnly(text);
  const call = conditionalCall(text, code, node);
  if (!call) return { missing: `${file} has no addConditionalEdges call for the node ${node}: the router may be added elsewhere (another file, a helper)` };
  const argument = text.slice(call.from, call.to).trim();
  const name = new RegExp(`^${NAME}$`).test(argument) ? argument : null;
  if (!name) return routerAt(source, code, call, null, returned);
  return namedRouter(source, code, name, returned, imported, 0);
};

/**
 * The function `name` of a file, with the `return`s that can have given `returned`: defined there,
 * or followed to the file of the folder it is imported from (a relative import), or why not.
 */
const namedRouter = (source: AgentSource, code: string, name: string, returned: unknown, imported: ImportedSources, hops: number): RouterFound => {
  const place = definition(code, name);
  if (place) return routerAt(source, code, place, name, returned);
  const from = importedFrom(source.text, code, name);
  if (!from) return { missing: `${name} is not defined in ${source.file}` };
  if (!/^\.\.?\//.test(from.module)) return { missing: `${name} is imported from ${from.module}: its source is not in the agent's folder` };
  if (hops >= MAX_IMPORT_HOPS) return { missing: `${name} is imported through more than ${MAX_IMPORT_HOPS} files from ${source.file}: Loopscope follows ${MAX_IMPORT_HOPS}` };
  const wanted = { from: source.file, specifier: from.module };
  const next = imported(wanted);
  if (!next) return { needs: wanted };
  const nextCode = codeOnly(next.text);
  const original = from.original === 'default' ? defaultExportName(nextCode) : from.original;
  if (!original) return { missing: `${name} is the default export of ${next.file}, which has no name there` };
  return namedRouter(next, nextCode, original, returned, imported, hops + 1);
};

/** The router whose source is at `place` in the file, with the `return`s that can have given `returned`. */
const routerAt = (source: AgentSource, code: string, place: { from: number; to: number }, name: string | null, returned: unknown): RouterFound => {
  const { text, file } = source;
  const line = lineAt(text, place.from);
  const own = text.slice(place.from, place.to);
  const lines = own.split('\n');
  const codeLines = code.slice(place.from, place.to).split('\n');
  const returns = codeLines.flatMap((codeLine, index) => (/\breturn\b/.test(codeLine) ? [index] : []));
  // An arrow with an expression body returns it: its lines are all the returning there is.
  const candidates = returns.length > 0 ? returns : lines.map((_, index) => index);
  const says = saysReturned(returned);
  const saying = candidates.filter((index) => says(lines[index]));
  const chosen = saying.length > 0 ? saying : candidates;
  return { found: { name, file, line, text: own, returned: chosen.map((index) => line + index) } };
};

/** Where the router's name would come from, when the page has no source to read it in. */
export const NO_SOURCE = 'its name is not in the server\'s events (LangGraph.js runs a router as "RunnableLambda" there, and the graph\'s description carries no name): open the agent\'s folder with `loopscope open` (its langgraph.json names the file) to see the function and the line that returned';

/** Why a conditional step read from a thread's history says no more than where it went. */
export const NOT_STREAMED = 'What the router returned is told by the server\'s event stream of a run started or continued from this page; this thread\'s checkpoints keep only where it went.';

/** The explanation of one router's run as a reason (src/graph/reason.ts): who returned what, and where. */
export const routeReason = ({ node, returned, router }: RouteExplanation): Reason => ({
  is: 'router', node, returned,
  ...(router && 'found' in router ? { router: { name: router.found.name, file: router.found.file, lines: router.found.returned } } : {}),
  ...(router && 'missing' in router ? { missing: router.missing } : {}),
});
