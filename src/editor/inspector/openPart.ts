import { createContext, useContext } from 'react';
import type { Selection } from '../../store/index.ts';

/**
 * A link from one form of the inspector to a part of another (an Act's plans are a Reason's, its
 * skills the graph's): `open` selects what the part belongs to, and the inspector opens at the
 * element marked `data-part` with that name. `asked` is the part asked for, while it is opening.
 */
export interface OpenPart {
  open: (selection: Selection, part: string) => void;
  asked: string | null;
}

export const OpenPartContext = createContext<OpenPart>({ open: () => {}, asked: null });
export const useOpenPart = () => useContext(OpenPartContext);

/** The part of a skill's settings in the graph's form. */
export const skillPart = (name: string) => `skill:${name}`;
