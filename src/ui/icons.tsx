/**
 * Every icon of the screen is a lucide drawing, as inline SVG or, on the canvas, as the same drawing
 * in a CSS image: no emoji, which some machines draw as empty boxes. The first screen's own icons
 * are in canvasIcons.tsx, so that the toolbars' and panels' icons load with them.
 */
import { Brain, Hand, Inbox, LifeBuoy, MessageSquareText, OctagonX, SearchCheck, Zap, type LucideIcon, type LucideProps } from 'lucide-react';
import type { KindIconName } from '../graph/index.ts';

export * from './canvasIcons.tsx';
export * from './problemIcons.ts';

export {
  Bug as DebugLayoutIcon,
  Cable as ConnectIcon,
  Check as PassIcon,
  ClipboardPaste as PasteIcon,
  CircleAlert as ErrorIcon,
  Download as ExportIcon,
  FilePlus as NewGraphIcon,
  FileUp as ImportIcon,
  Library as LibraryIcon,
  Maximize as FitViewIcon,
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
  Trash2 as RemoveIcon,
  TriangleAlert as WarningIcon,
  Undo2 as UndoIcon,
  Workflow as MermaidIcon,
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
