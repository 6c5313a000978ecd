/**
 * What reaches a terminal. A file's names and ids are printed, and a file must not be able to
 * move the cursor, clear the screen or rewrite a line (ANSI and OSC escapes), nor reorder text
 * (bidi overrides): control and format characters, and line separators, are shown as `\u001b`
 * instead. Only the newline between lines stays.
 */
const UNPRINTABLE = /(?!\n)[\p{Cc}\p{Cf}\u2028\u2029]/gu;

export const printable = (line: string): string =>
  line.replace(UNPRINTABLE, (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
