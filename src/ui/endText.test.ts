import { describe, expect, it } from 'vitest';
import { ELLIPSIS, endText, fontText, type Measure } from './endText.ts';

/** A fake font: every character 10 px wide, the ellipsis 6; counts what it measured. */
const fakeMeasure = () => {
  const measured: string[] = [];
  const measure: Measure = (text) => {
    measured.push(text);
    return Array.from(text).reduce((width, character) => width + (character === ELLIPSIS ? 6 : 10), 0);
  };
  return { measure, measured };
};

describe('endText', () => {
  it('gives text that fits as it is, measured once', () => {
    const { measure, measured } = fakeMeasure();
    expect(endText('Plan', 40, measure)).toBe('Plan');
    expect(endText('', 0, measure)).toBe('');
    expect(measured).toEqual(['Plan', '']);
  });

  it('ends longer text with the most characters that fit beside the ellipsis', () => {
    const { measure } = fakeMeasure();
    // 46 px: four characters (40) and the ellipsis (6) fit exactly, five do not.
    expect(endText('Planner of the day', 46, measure)).toBe(`Plan${ELLIPSIS}`);
    expect(endText('Planner of the day', 45.9, measure)).toBe(`Pla${ELLIPSIS}`);
    // One character too long: it still loses one and gains the ellipsis.
    expect(endText('Plans', 49, measure)).toBe(`Plan${ELLIPSIS}`);
  });

  it('gives the ellipsis alone when no character fits beside it', () => {
    const { measure } = fakeMeasure();
    expect(endText('Plan', 12, measure)).toBe(ELLIPSIS);
    expect(endText('Plan', 0, measure)).toBe(ELLIPSIS);
  });

  it('never cuts a character written as two UTF-16 units', () => {
    const { measure } = fakeMeasure();
    expect(endText('𝔸𝔹ℂ𝔻', 26, measure)).toBe(`𝔸𝔹${ELLIPSIS}`);
  });

  it('measures a number of times that grows with the log of the length, not the length', () => {
    const { measure, measured } = fakeMeasure();
    const ended = endText('x'.repeat(1000), 106, measure);
    expect(ended).toBe(`${'x'.repeat(10)}${ELLIPSIS}`);
    expect(measured.length).toBeLessThanOrEqual(12);
  });
});

describe('fontText', () => {
  it('gives widths of 0 and text whole where the page cannot measure text', () => {
    const text = fontText((family) => `12px ${family}`);
    expect(text.width('entry')).toBe(0);
    expect(text.end('a long summary line that would not fit', 10)).toBe('a long summary line that would not fit');
  });
});
