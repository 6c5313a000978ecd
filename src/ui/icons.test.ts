import { describe, expect, it } from 'vitest';
import { KIND_ICONS } from '../graph/index.ts';
import { kindIconImage, problemIconImage } from './icons.tsx';

const svgOf = (image: string) => decodeURIComponent(/^url\("data:image\/svg\+xml,(.*)"\)$/.exec(image)![1]);

describe('kindIconImage', () => {
  it('draws every kind icon as an SVG image in the colour asked, with lucide’s stroke', () => {
    for (const name of KIND_ICONS) {
      const svg = svgOf(kindIconImage(name, '#6d5dfc'));
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="#6d5dfc" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">/);
      expect(svg).toMatch(/<(path|circle|rect|line|polyline|polygon) [a-z]/);
      expect(svg).not.toContain('key=');
    }
  });

  it('gives the same string for the same icon and colour, another for another colour', () => {
    expect(kindIconImage('brain', '#111111')).toBe(kindIconImage('brain', '#111111'));
    expect(kindIconImage('brain', '#222222')).not.toBe(kindIconImage('brain', '#111111'));
  });
});

describe('problemIconImage', () => {
  it('draws the error and warning icons of the problems panel in the problems’ colours', () => {
    expect(svgOf(problemIconImage('error'))).toMatch(/stroke="#f87171".*<circle cx="12" cy="12" r="10"\/>/);
    expect(svgOf(problemIconImage('warning'))).toMatch(/stroke="#fbbf24".*<path d="m21.73 18-8-14/);
    expect(problemIconImage('error')).toBe(problemIconImage('error'));
  });
});
