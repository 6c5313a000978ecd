/**
 * A file's names shown to a person (a terminal line, the page's labels, pickers and dialogs, an
 * exported README): a file must not be able to move a terminal's cursor, clear its screen or
 * rewrite a line (ANSI and OSC escapes), reorder text (bidi overrides) or break a line. Control and
 * format characters, line separators, and what is no character (a lone surrogate, an unassigned or
 * private-use code point) are shown as `\u001b` instead.
 */
const UNPRINTABLE = /[\p{C}\u2028\u2029]/gu;
const UNPRINTABLE_BUT_NEWLINE = /(?!\n)[\p{C}\u2028\u2029]/gu;

const escape = (char: string) => `\\u${(char.codePointAt(0) as number).toString(16).padStart(4, '0')}`;

/** The text on one line, with every control and format character shown as its escape. */
export const visibleText = (text: string): string => text.replace(UNPRINTABLE, escape);

/** The same for text of several lines: the newlines between them stay. */
export const visibleLines = (text: string): string => text.replace(UNPRINTABLE_BUT_NEWLINE, escape);

/** The unprintable characters one by one, kept by `split` (a capturing group) between the text around them. */
const UNPRINTABLE_ONE = new RegExp(`(${UNPRINTABLE.source})`, 'u');

/**
 * The text as visibleText shows it, in runs: the printable text at even places, each unprintable
 * character's escape at odd ones, for a page that draws the escapes apart from the name.
 */
export const visibleRuns = (text: string): string[] => text.split(UNPRINTABLE_ONE).map((run, index) => (index % 2 === 1 ? escape(run) : run));
