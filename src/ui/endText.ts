/**
 * Long text ended in an ellipsis by script rather than by CSS. `text-overflow: ellipsis` needs the
 * box to clip its overflow, and on the canvas every clipping element is paint chunks of its own that
 * the browser sorts into layers again on each drag and pan frame; text ended here is drawn whole,
 * with no clip. It is measured once: the result is kept per font, width and text.
 */

/** The width of `text` as drawn, in CSS pixels. */
export type Measure = (text: string) => number;

export const ELLIPSIS = '…';

/**
 * `text` if it fits in `width`, else as many of its first characters as fit with an ellipsis after
 * them (the ellipsis alone if none does), as `text-overflow: ellipsis` draws it. Characters are
 * code points, so a pair of surrogates is never cut in two.
 */
export const endText = (text: string, width: number, measure: Measure): string => {
  if (measure(text) <= width) return text;
  const characters = Array.from(text);
  // The longest prefix that fits with the ellipsis: a wider prefix is never narrower, so search.
  let fits = 0;
  let fitsNot = characters.length;
  while (fitsNot - fits > 1) {
    const middle = (fits + fitsNot) >> 1;
    if (measure(characters.slice(0, middle).join('') + ELLIPSIS) <= width) fits = middle;
    else fitsNot = middle;
  }
  return characters.slice(0, fits).join('') + ELLIPSIS;
};

/**
 * The page's font family, read once for every font: reading it computes the page's style, which in
 * the middle of a render that changed the page (a heat badge's first count, say) costs milliseconds.
 */
let pageFamily: string | undefined;

/** A measure of text in a CSS font, from a 2D canvas; none where there is no canvas (tests out of a browser). */
const canvasMeasure = (font: (family: string) => string): Measure | null => {
  if (typeof OffscreenCanvas === 'undefined') return null;
  const context = new OffscreenCanvas(1, 1).getContext('2d');
  if (!context) return null;
  pageFamily ??= getComputedStyle(document.documentElement).fontFamily;
  context.font = font(pageFamily);
  return (text) => context.measureText(text).width;
};

/** Enough for every text of a big graph; past it the kept results start over rather than grow with every label typed. */
const KEPT = 20_000;

const keep = <T>(kept: Map<string, T>, key: string, make: () => T): T => {
  let value = kept.get(key);
  if (value === undefined) {
    if (kept.size >= KEPT) kept.clear();
    value = make();
    kept.set(key, value);
  }
  return value;
};

/**
 * Text drawn in a CSS font (`font` gives the `font` shorthand for the page's font family, read when
 * first used): its width, and the text ended to a width, each result kept. Where text cannot be
 * measured, widths are 0 and text is given whole.
 */
export const fontText = (font: (family: string) => string) => {
  let measure: Measure | null | undefined;
  const measureOf = () => (measure === undefined ? (measure = canvasMeasure(font)) : measure);
  const widths = new Map<string, number>();
  const ended = new Map<string, string>();
  return {
    width: (text: string): number => {
      const measured = measureOf();
      return measured ? keep(widths, text, () => measured(text)) : 0;
    },
    end: (text: string, width: number): string => {
      const measured = measureOf();
      return measured ? keep(ended, `${width} ${text}`, () => endText(text, width, measured)) : text;
    },
  };
};
