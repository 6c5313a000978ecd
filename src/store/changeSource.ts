/**
 * Where a change of the open graph comes from, as tldraw tags its store's changes (`source: 'user' |
 * 'remote'`): the person, or the graph's file on disk (`loopscope open`, fileSync.ts). zustand calls
 * the store's listeners while the change is made, so a listener reads the source then: the saver
 * writes the person's changes and takes one from disk as what the file holds, never writing it back.
 */
export type ChangeSource = { from: 'person' } | { from: 'disk'; text: string };

const PERSON: ChangeSource = { from: 'person' };
let current: ChangeSource = PERSON;

/** The source of the change being made. */
export const changeSource = () => current;

/** Makes what `apply` changes a change from the file on disk, whose text is `text`. */
export const fromDisk = (text: string, apply: () => void) => {
  current = { from: 'disk', text };
  try {
    apply();
  } finally {
    current = PERSON;
  }
};
