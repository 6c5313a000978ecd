import { describe, expect, it } from 'vitest';
import { flexOf, initialLayout, withFolded, type PanelSpec } from './splitLayout.ts';
import { resizedTo, toggled } from './splitResize.ts';

const palette: PanelSpec = { size: { px: 116 }, min: 100, max: 260, collapsible: true };
const bottom: PanelSpec = { size: { percent: 30 }, min: 110, collapsible: true };
const canvas: PanelSpec = { min: 160 };
const rail: PanelSpec = { size: { percent: 24 }, min: 200, collapsible: true, collapsedSize: 32, startCollapsed: true };

describe('splitter layout', () => {
  it('fills with the panel that has no size, and keeps the others at theirs within their minimum and maximum', () => {
    expect(flexOf(canvas, undefined)).toEqual({ flex: '1 1 0', minSize: 160 });
    expect(flexOf(palette, { size: { px: 116 }, collapsed: false })).toEqual({ flex: '0 1 116px', minSize: 100, maxSize: 260 });
    expect(flexOf(bottom, { size: { percent: 30 }, collapsed: false })).toEqual({ flex: '0 1 30%', minSize: 110, maxSize: undefined });
    expect(flexOf(rail, { size: { percent: 24 }, collapsed: true })).toEqual({ flex: '0 0 32px', minSize: 0 });
  });

  it('resizes in the unit of the panel, within its minimum, its maximum and the room the group has', () => {
    const state = { size: { px: 116 }, collapsed: false };
    expect(resizedTo(palette, state, 180.4, 1440, 1000)).toEqual({ size: { px: 180 }, collapsed: false });
    expect(resizedTo(palette, state, 400, 1440, 1000)).toEqual({ size: { px: 260 }, collapsed: false });
    expect(resizedTo(palette, state, 200, 1440, 150)).toEqual({ size: { px: 150 }, collapsed: false });
    expect(resizedTo(bottom, { size: { percent: 30 }, collapsed: false }, 400, 800, 700)).toEqual({ size: { percent: 50 }, collapsed: false });
  });

  it('stops at the minimum, and collapses a collapsible panel dragged below half of it; a collapsed one opens at its last size', () => {
    const state = { size: { px: 116 }, collapsed: false };
    expect(resizedTo(palette, state, 80, 1440, 1000)).toEqual({ size: { px: 100 }, collapsed: false });
    const collapsed = resizedTo(palette, state, 40, 1440, 1000);
    expect(collapsed).toEqual({ size: { px: 116 }, collapsed: true });
    expect(toggled(collapsed)).toEqual(state);
    expect(resizedTo({ ...palette, collapsible: false }, state, 10, 1440, 1000)).toEqual({ size: { px: 100 }, collapsed: false });
  });

  it('starts from the remembered layout where it fits the panels, and from their defaults otherwise', () => {
    const specs = { canvas, palette, bottom, rail };
    expect(initialLayout(specs, null)).toEqual({
      palette: { size: { px: 116 }, collapsed: false },
      bottom: { size: { percent: 30 }, collapsed: false },
      rail: { size: { percent: 24 }, collapsed: true },
    });
    const remembered = {
      palette: { size: { px: 200 }, collapsed: true },
      bottom: { size: { px: 300 }, collapsed: false },
      rail: { size: { percent: 140 }, collapsed: false },
      canvas: { size: { px: 1 }, collapsed: false },
    };
    expect(initialLayout(specs, remembered)).toEqual({
      palette: { size: { px: 200 }, collapsed: true },
      bottom: { size: { percent: 30 }, collapsed: false },
      rail: { size: { percent: 24 }, collapsed: true },
    });
    expect(initialLayout({ canvas, palette: { ...palette, collapsible: false } }, { palette: { size: { px: 200 }, collapsed: true } })).toEqual({
      palette: { size: { px: 116 }, collapsed: false },
    });
  });

  it('draws a folded panel collapsed and leaves the person\'s sizes as they are', () => {
    const layout = { bottom: { size: { percent: 42 }, collapsed: false }, rail: { size: { percent: 24 }, collapsed: true } };
    const folded = withFolded(layout, ['bottom', 'rail', 'absent']);
    expect(folded).toEqual({ bottom: { size: { percent: 42 }, collapsed: true }, rail: { size: { percent: 24 }, collapsed: true } });
    expect(layout.bottom).toEqual({ size: { percent: 42 }, collapsed: false });
    expect(withFolded(layout, [])).toBe(layout);
    expect(withFolded(layout, ['rail'])).toBe(layout);
  });
});
