/**
 * The text of an exported project's files, each written by a serializer for its format: what a
 * graph file holds (its name, key names, addresses) only ever reaches a file as escaped data, so a
 * name with a newline cannot become a line of .env of its own, nor a heading or HTML in the README.
 */
import { visibleText } from '../graph/visible.ts';
import { ENV_NAME } from '../graph/skills.ts';

/** A JSON file: the value as JSON.stringify writes it, two spaces, a newline at the end. */
export const jsonText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export type DotenvLine = { comment: string } | { name: string; value: string; commented?: boolean };

/** Ends a dotenv value or a line (JavaScript's multiline `^` and `$`, which dotenv's parser reads by). */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * A value as dotenv reads it back exactly: empty bare, else in single quotes (dotenv takes what is
 * inside as it is), else in backticks; a value holding both, or a line break, has no such form.
 */
const dotenvValue = (value: string): string => {
  if (LINE_BREAK.test(value)) throw new Error('a dotenv value cannot hold a line break');
  if (value === '') return '';
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('`')) return `\`${value}\``;
  throw new Error('a dotenv value cannot hold both \' and `');
};

/**
 * A dotenv file (.env, .env.example) line by line: a variable's name is checked to be one, its
 * value quoted; a comment's text has its control characters and line breaks escaped, so it stays
 * one comment line. A commented variable is written as the person would uncomment it.
 */
export const dotenvText = (lines: readonly DotenvLine[]): string =>
  lines.map((line) => {
    if ('comment' in line) return `# ${visibleText(line.comment)}`;
    if (!ENV_NAME.test(line.name)) throw new Error(`"${visibleText(line.name)}" is not the name of an environment variable`);
    return `${line.commented ? '# ' : ''}${line.name}=${dotenvValue(line.value)}`;
  }).map((line) => `${line}\n`).join('');

/**
 * Text in a Markdown paragraph, shown as it is: control characters and line breaks escaped as
 * `\u000a`, then every ASCII punctuation character backslash-escaped (CommonMark shows it literally),
 * so no heading, link, emphasis or HTML can start inside it.
 */
export const markdownText = (text: string): string => visibleText(text).replace(/[!-/:-@[-`{-~]/g, (char) => `\\${char}`);
