/** `{{args.x}}` and `{{state.x}}` placeholders, filled from the action and the state. */
const PLACEHOLDER = /\{\{\s*(args|state)\.([\w$.]+)\s*\}\}/g;

export const readPath = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((current, key) => (current !== null && typeof current === 'object' && Object.hasOwn(current, key) ? (current as Record<string, unknown>)[key] : undefined), value);

const asText = (value: unknown): string => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

export const fillTemplate = (
  text: string,
  sources: { args: Record<string, unknown>; state: Readonly<Record<string, unknown>> },
  encode: (text: string) => string = (text) => text,
): string => text.replace(PLACEHOLDER, (_match, source: 'args' | 'state', path: string) => encode(asText(readPath(sources[source], path))));
