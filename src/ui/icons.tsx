/**
 * Every icon of the screen is a lucide drawing, as inline SVG or, on the canvas, as the same drawing
 * in a CSS image: no emoji, which some machines draw as empty boxes. The first screen's own icons
 * are in canvasIcons.tsx, so that the toolbars' and panels' icons load with them.
 */
import { createElement, type SVGProps } from 'react';
import { KIND_ICON_DRAWINGS } from './canvasIcons.tsx';
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
  X as CloseIcon,
  X as FailIcon,
} from 'lucide-react';

/**
 * A node kind's icon, decorative (the kind's name is always written beside it): its lucide drawing
 * inline, in the text's colour, as lucide draws it. Drawn from the drawing rather than by lucide's
 * component, so that the first screen, which has the drawings, needs none of lucide's React code.
 */
export function KindIcon({ name, size = 16, ...props }: { name: KindIconName; size?: number } & SVGProps<SVGSVGElement>) {
  return (
    <svg aria-hidden="true" focusable="false" width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" {...props}>
      {KIND_ICON_DRAWINGS[name].map(([tag, attributes]) => createElement(tag, attributes))}
    </svg>
  );
}
