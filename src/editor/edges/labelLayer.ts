import { createContext } from 'react';

/**
 * The element edge labels are drawn into: React Flow's label layer above the edges, looked up once
 * by the canvas. React Flow's own EdgeLabelRenderer gives every label a store subscription that
 * queries the DOM on each store update, which made every pan and drag frame pay once per label.
 */
export const EdgeLabelLayer = createContext<HTMLElement | null>(null);

/** React Flow's layer for edge labels, inside a canvas element. */
export const findEdgeLabelLayer = (canvas: HTMLElement | null) => canvas?.querySelector<HTMLElement>('.react-flow__edgelabel-renderer') ?? null;
