import { create } from 'zustand';

/**
 * Where the view controls sit (beside the canvas, editor/ViewControls.tsx), and whether a canvas
 * drawn over the editor's (a server's LangGraph graph, debugger/server/ServerCanvas.tsx) has taken
 * them: zoom, fit and the minimap then drive the canvas on screen, not the one hidden under it.
 */
export const useViewSlot = create<{ slot: HTMLElement | null; taken: boolean }>(() => ({ slot: null, taken: false }));
