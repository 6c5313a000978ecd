// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { visibleRuns, visibleText } from '../graph/visible.ts';
import { mountForTest, unmountAfterEach } from './mountForTest.tsx';
import { Shown } from './Shown.tsx';

unmountAfterEach();

describe('visibleRuns', () => {
  it('splits a name into its text and the escapes of its control and format characters, as visibleText shows them', () => {
    const name = 'safe\u202egnp.exe\u2066x\u200f\n\u001b[2J';
    const runs = visibleRuns(name);
    expect(runs).toEqual(['safe', '\\u202e', 'gnp.exe', '\\u2066', 'x', '\\u200f', '', '\\u000a', '', '\\u001b', '[2J']);
    expect(runs.join('')).toBe(visibleText(name));
  });

  it('a name with none is one run; a lone surrogate is escaped', () => {
    expect(visibleRuns('Triage 🚀')).toEqual(['Triage 🚀']);
    expect(visibleRuns('a\ud800b')).toEqual(['a', '\\ud800', 'b']);
  });
});

describe('Shown', () => {
  it('draws each escape apart, and never the raw character', () => {
    const container = mountForTest(<p><Shown text={'safe\u202egnp.exe'} /></p>);
    expect(container.textContent).toBe('safe\\u202egnp.exe');
    expect(container.textContent).not.toContain('\u202e');
    const escapes = container.querySelectorAll('.shown-escape');
    expect([...escapes].map((element) => element.textContent)).toEqual(['\\u202e']);
  });

  it('draws a plain name as its text alone, with no element of its own', () => {
    const container = mountForTest(<p><Shown text="Triage" /></p>);
    expect(container.innerHTML).toBe('<p>Triage</p>');
  });
});
