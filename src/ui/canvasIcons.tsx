/**
 * The icons the first screen draws: the brand, the panels' rail and the canvas's kind icons, as CSS
 * images of lucide's drawings. The first screen draws no lucide component: lucide's React code loads
 * with the panels (icons.tsx), and problemIcons.ts with the graph's check, after the first screen.
 */
import type { LucideIconNode } from 'lucide-react';
// The drawings alone, not the components (lucideIconData.d.ts): the canvas draws them as CSS images.
import { __iconData as brainIcon } from 'lucide-react/icons/brain';
import { __iconData as chevronLeftIcon } from 'lucide-react/icons/chevron-left';
import { __iconData as chevronRightIcon } from 'lucide-react/icons/chevron-right';
import { __iconData as circleDotIcon } from 'lucide-react/icons/circle-dot';
import { __iconData as handIcon } from 'lucide-react/icons/hand';
import { __iconData as inboxIcon } from 'lucide-react/icons/inbox';
import { __iconData as lifeBuoyIcon } from 'lucide-react/icons/life-buoy';
import { __iconData as messageSquareTextIcon } from 'lucide-react/icons/message-square-text';
import { __iconData as octagonXIcon } from 'lucide-react/icons/octagon-x';
import { __iconData as searchCheckIcon } from 'lucide-react/icons/search-check';
import { __iconData as zapIcon } from 'lucide-react/icons/zap';
import type { KindIconName } from '../graph/index.ts';

/** Each kind's lucide drawing: the canvas's CSS images and the panels' `KindIcon`. */
export const KIND_ICON_DRAWINGS: Record<KindIconName, readonly LucideIconNode[]> = {
  brain: brainIcon.node,
  inbox: inboxIcon.node,
  zap: zapIcon.node,
  'search-check': searchCheckIcon.node,
  'life-buoy': lifeBuoyIcon.node,
  hand: handIcon.node,
  'message-square-text': messageSquareTextIcon.node,
  'octagon-x': octagonXIcon.node,
};

const escapeAttribute = (value: unknown) => String(value).replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
const svgElements = (nodes: readonly LucideIconNode[]): string =>
  nodes
    .map(([tag, attributes, children]) => {
      const written = Object.entries(attributes).filter(([name]) => name !== 'key').map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('');
      return children?.length ? `<${tag}${written}>${svgElements(children)}</${tag}>` : `<${tag}${written}/>`;
    })
    .join('');

const iconImages = new Map<string, string>();
/**
 * A lucide drawing as a CSS image, with lucide's stroke, in `color`. The canvas's nodes and edge
 * labels show their icons as backgrounds: each inline SVG is its own clip and transform to the
 * browser, and on a big graph sorting those into layers made every drag and pan frame slower. The
 * timeline's rows too: a row's icon is one element instead of an SVG of up to a dozen, made again
 * as the window moves.
 */
export const iconImage = (key: string, drawing: readonly LucideIconNode[], color: string): string => {
  let image = iconImages.get(key);
  if (image === undefined) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="${escapeAttribute(color)}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${svgElements(drawing)}</svg>`;
    image = `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
    iconImages.set(key, image);
  }
  return image;
};

/** A kind's icon as a CSS image, the same lucide drawing as `KindIcon`, in `color`. */
export const kindIconImage = (name: KindIconName, color: string): string => iconImage(`kind ${name} ${color}`, KIND_ICON_DRAWINGS[name], color);


/** A lucide drawing as a decorative icon in the text's colour: a mask over `currentColor` (styles.css, `.icon-mask`). */
const maskIcon = (name: string, drawing: readonly LucideIconNode[]) =>
  function MaskIcon({ size, className }: { size: number; className?: string }) {
    return <span aria-hidden="true" className={`icon-mask${className ? ` ${className}` : ''}`} style={{ '--icon': iconImage(`mask ${name}`, drawing, '#000'), width: size, height: size } as React.CSSProperties} />;
  };
export const BrandIcon = maskIcon('circle-dot', circleDotIcon.node);
export const ShowPanelIcon = maskIcon('chevron-left', chevronLeftIcon.node);
export const HidePanelIcon = maskIcon('chevron-right', chevronRightIcon.node);

