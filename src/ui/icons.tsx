/** Every icon of the screen is a lucide drawing, as inline SVG or, on the canvas, as the same drawing in a CSS image: no emoji, which some machines draw as empty boxes. */
import { Brain, Hand, Inbox, LifeBuoy, MessageSquareText, OctagonX, SearchCheck, Zap, type LucideIcon, type LucideIconData, type LucideIconNode, type LucideProps } from 'lucide-react';
import * as brainIcon from 'lucide-react/icons/brain';
import * as circleAlertIcon from 'lucide-react/icons/circle-exclamation-point';
import * as handIcon from 'lucide-react/icons/hand';
import * as inboxIcon from 'lucide-react/icons/inbox';
import * as lifeBuoyIcon from 'lucide-react/icons/life-buoy';
import * as messageSquareTextIcon from 'lucide-react/icons/message-square-text';
import * as octagonXIcon from 'lucide-react/icons/octagon-x';
import * as searchCheckIcon from 'lucide-react/icons/search-check';
import * as triangleAlertIcon from 'lucide-react/icons/triangle-exclamation-point';
import * as zapIcon from 'lucide-react/icons/zap';
import type { KindIconName } from '../graph/index.ts';

export {
  Cable as ConnectIcon,
  Check as PassIcon,
  CircleDot as BrandIcon,
  ClipboardPaste as PasteIcon,
  CircleAlert as ErrorIcon,
  Download as ExportIcon,
  FilePlus as NewGraphIcon,
  FileUp as ImportIcon,
  Library as LibraryIcon,
  Minus as SkippedIcon,
  Network as LayoutIcon,
  Pause as PauseIcon,
  Play as RunIcon,
  Redo2 as RedoIcon,
  RotateCcw as ResetIcon,
  Server as ServerIcon,
  Share2 as ShareIcon,
  SkipForward as ContinueIcon,
  Square as StopIcon,
  StepForward as StepIcon,
  ChevronsRight as StepRoundIcon,
  ChevronLeft as ShowPanelIcon,
  ChevronRight as HidePanelIcon,
  Trash2 as RemoveIcon,
  TriangleAlert as WarningIcon,
  Undo2 as UndoIcon,
  Workflow as MermaidIcon,
  X as FailIcon,
  X as CloseIcon,
} from 'lucide-react';

const KIND_ICON_COMPONENTS: Record<KindIconName, LucideIcon> = {
  brain: Brain,
  inbox: Inbox,
  zap: Zap,
  'search-check': SearchCheck,
  'life-buoy': LifeBuoy,
  hand: Hand,
  'message-square-text': MessageSquareText,
  'octagon-x': OctagonX,
};

/** A node kind's icon, decorative: the kind's name is always written beside it. */
export function KindIcon({ name, ...props }: { name: KindIconName } & LucideProps) {
  const Icon = KIND_ICON_COMPONENTS[name];
  return <Icon aria-hidden="true" focusable="false" size={16} {...props} />;
}

/** A lucide icon's module as it is at run time: its drawing is exported beside its component (the types name the component only). */
const drawingOf = (module: object) => (module as { __iconData: LucideIconData }).__iconData.node;

const KIND_ICON_DRAWINGS: Record<KindIconName, readonly LucideIconNode[]> = {
  brain: drawingOf(brainIcon),
  inbox: drawingOf(inboxIcon),
  zap: drawingOf(zapIcon),
  'search-check': drawingOf(searchCheckIcon),
  'life-buoy': drawingOf(lifeBuoyIcon),
  hand: drawingOf(handIcon),
  'message-square-text': drawingOf(messageSquareTextIcon),
  'octagon-x': drawingOf(octagonXIcon),
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
const iconImage = (key: string, drawing: readonly LucideIconNode[], color: string): string => {
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

/** The drawings of `ErrorIcon` and `WarningIcon` (lucide's alert icons, under their current names) in styles.css's --danger and --warn. */
const PROBLEM_ICONS = {
  error: { drawing: drawingOf(circleAlertIcon), color: '#f87171' },
  warning: { drawing: drawingOf(triangleAlertIcon), color: '#fbbf24' },
} as const;

/** A problem's icon as a CSS image, as `ErrorIcon` or `WarningIcon` draws it in the problem's colour. */
export const problemIconImage = (severity: keyof typeof PROBLEM_ICONS): string => iconImage(`problem ${severity}`, PROBLEM_ICONS[severity].drawing, PROBLEM_ICONS[severity].color);
