/**
 * What the canvas takes as a drop, read during the drag event itself. On the first screen: a drop
 * is allowed only if its dragover is cancelled at once, and its data can be read only while its
 * event lasts; what the drop does (canvasEdits.ts) may load a moment later (Canvas.tsx).
 */
import type { Position } from '../graph/index.ts';

/** The drag-and-drop type of a palette item. */
export const KIND_DRAG_TYPE = 'application/x-loopscope-kind';

/** A drop as read during its event: a palette item's kind (empty if none), a file, and where it was let go (client pixels). */
export interface Dropped {
  kind: string;
  file: File | undefined;
  at: Position;
}

const taken = (event: React.DragEvent) => event.dataTransfer.types.includes(KIND_DRAG_TYPE) || event.dataTransfer.types.includes('Files');

/** A palette item or a file dragged over the canvas may be dropped there. */
export const acceptDrop = (event: React.DragEvent) => {
  if (!taken(event)) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = event.dataTransfer.types.includes('Files') ? 'copy' : 'move';
};

/** What a palette item or a file dropped brings (null for anything else), read while its event lasts. */
export const readDrop = (event: React.DragEvent): Dropped | null => {
  if (!taken(event)) return null;
  event.preventDefault();
  return { kind: event.dataTransfer.getData(KIND_DRAG_TYPE), file: event.dataTransfer.files[0], at: { x: event.clientX, y: event.clientY } };
};
