/** `{{args.x}}` and `{{state.x}}` placeholders, filled from the action and the state. */
const PLACEHOLDER = /\{\{\s*(args|state)\.([\w$.]+)\s*\}\}/g;
/** The same, matched only where the scan stands. */
const PLACEHOLDER_HERE = new RegExp(PLACEHOLDER.source, 'y');

export const readPath = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((current, key) => (current !== null && typeof current === 'object' && Object.hasOwn(current, key) ? (current as Record<string, unknown>)[key] : undefined), value);

const asText = (value: unknown): string => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

type Sources = { args: Record<string, unknown>; state: Readonly<Record<string, unknown>> };

const lookup = (sources: Sources, source: string, path: string) => readPath(source === 'args' ? sources.args : sources.state, path);

export const fillTemplate = (text: string, sources: Sources, encode: (text: string) => string = (text) => text): string =>
  text.replace(PLACEHOLDER, (_match, source: string, path: string) => encode(asText(lookup(sources, source, path))));

/**
 * Fills a JSON body so that no value can change its shape: inside a string literal a value is
 * JSON-escaped (`x","role":"admin` stays one string), elsewhere it becomes a whole JSON value.
 */
export const fillJsonTemplate = (text: string, sources: Sources): string => {
  let filled = '';
  let inString = false;
  let index = 0;
  while (index < text.length) {
    PLACEHOLDER_HERE.lastIndex = index;
    const match = PLACEHOLDER_HERE.exec(text);
    if (match) {
      const value = lookup(sources, match[1], match[2]);
      filled += inString ? JSON.stringify(asText(value)).slice(1, -1) : (JSON.stringify(value) ?? 'null');
      index += match[0].length;
      continue;
    }
    const char = text[index];
    filled += char;
    if (inString && char === '\\') {
      filled += text[index + 1] ?? '';
      index += 2;
      continue;
    }
    if (char === '"') inString = !inString;
    index += 1;
  }
  return filled;
};

/** A body is JSON when its content type says so, or, with none given, when it looks like a JSON object or array. */
export const isJsonBody = (body: string, headers: Readonly<Record<string, string>> | undefined): boolean => {
  const type = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return type === undefined ? /^\s*[[{]/.test(body) : /\bjson\b/i.test(type);
};
