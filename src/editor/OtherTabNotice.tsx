import { useState } from 'react';
import { openCopyOfGraph, takeOverGraph, useGraphTab } from '../hooks/library.ts';
import { FileNotice } from './FileNotice.tsx';

const WORDS = {
  elsewhere: 'This graph is open in another tab. Edits made here are not saved, so they never write over that tab’s work.',
  taken: 'This graph was taken over in another tab, which has the edits saved here. Edits made here from now on are not saved.',
} as const;

/** What the page says above the canvas of where the open graph is saved: another tab, its file on disk. */
export function OtherTabNotice() {
  return (
    <>
      <TabNotice />
      <FileNotice />
    </>
  );
}

/**
 * Says when another tab has the open graph, and offers the two ways on: edit it here (the other tab
 * saves and lets go, and its latest save opens here), or keep this tab's version as a copy.
 */
function TabNotice() {
  const conflict = useGraphTab((state) => state.conflict);
  const [busy, setBusy] = useState(false);
  if (!conflict) return null;
  const takeOver = () => {
    setBusy(true);
    void takeOverGraph().finally(() => setBusy(false));
  };
  return (
    <section className="other-tab-notice" aria-label="Graph open in another tab">
      <p>{WORDS[conflict]}</p>
      <button type="button" onClick={takeOver} disabled={busy}>
        {conflict === 'taken' ? 'Take it back here' : 'Take over here'}
      </button>
      <button type="button" onClick={openCopyOfGraph} disabled={busy} title="Keep this tab’s version as a new graph of the library">
        Open a copy
      </button>
    </section>
  );
}
