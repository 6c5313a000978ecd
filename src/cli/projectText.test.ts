import { parse } from 'dotenv';
import { micromark } from 'micromark';
import { describe, expect, it } from 'vitest';
import { visibleText } from '../graph/visible.ts';
import { dotenvText, markdownText } from './projectText.ts';

/** Names a hostile file might carry: line breaks of every kind, dotenv and shell syntax, Markdown and HTML. */
export const HOSTILE_TEXT = [
  'plain',
  'x\nNODE_OPTIONS=--import=data:text/javascript,process.exit(7)',
  'x\r\nA=1', 'x\rA=1', 'x\u2028A=1', 'x\u2029A=1',
  "it's \"quoted\" `ticked` #not-a-comment $HOME ${HOME} \\n",
  '# Heading\n\n<script>alert(1)</script> [link](javascript:alert(1)) *em* _u_ `code` <b>b</b> &amp; \\',
  '\u202egnp.exe \u001b[2J\u001b[H bidi and ANSI',
  '   leading and trailing   ',
];

/** What HTML shows as the text (micromark escapes these four). */
const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

describe('dotenv text', () => {
  it.each(HOSTILE_TEXT)('a comment stays one comment, whatever it holds: %j', (text) => {
    expect(parse(dotenvText([{ comment: text }, { name: 'KEY', value: '' }]))).toEqual({ KEY: '' });
  });

  it('values read back exactly as written, commented ones once uncommented', () => {
    const values = ['', 'OPENAI_API_KEY@https://api.openai.com,B@http://127.0.0.1:11434', "with 'single'", 'with `tick` and "double" # and $HOME \\n'];
    const text = dotenvText(values.map((value, index) => ({ name: `V${index}`, value })));
    expect(parse(text)).toEqual(Object.fromEntries(values.map((value, index) => [`V${index}`, value])));
    const commented = dotenvText([{ name: 'LOOPSCOPE_KEYS', value: 'A@https://a.example', commented: true }]);
    expect(parse(commented)).toEqual({});
    expect(parse(commented.replace(/^# /, ''))).toEqual({ LOOPSCOPE_KEYS: 'A@https://a.example' });
  });

  it('refuses what is not a variable name, and values that cannot be one line', () => {
    expect(() => dotenvText([{ name: 'A\nB', value: '' }])).toThrow('is not the name of an environment variable');
    expect(() => dotenvText([{ name: '__proto__ x', value: '' }])).toThrow('is not the name of an environment variable');
    expect(() => dotenvText([{ name: 'A', value: 'a\nB=1' }])).toThrow('line break');
    expect(() => dotenvText([{ name: 'A', value: '\'`' }])).toThrow('both');
  });
});

describe('Markdown text', () => {
  it.each(HOSTILE_TEXT)('renders as exactly the text, escaped where it cannot be shown: %j', (text) => {
    expect(micromark(`A graph “${markdownText(text)}”.`)).toBe(`<p>A graph “${html(visibleText(text))}”.</p>`);
  });
});
