const timelineList = () => document.querySelector<HTMLElement>('[role="list"][aria-label="Timeline"]');

/**
 * Where the focus was when it was asked for the timeline before the timeline was on screen (its
 * panel loads after the first screen, and a Run may be pressed before): null when nothing waits.
 */
let askedFrom: Element | null = null;

/**
 * Moves keyboard focus to the timeline's list, so the steps of the run just started are one arrow
 * key away; the timeline then keeps focus on the step it selects.
 */
export const focusTimeline = () => {
  const list = timelineList();
  askedFrom = list ? null : document.activeElement;
  list?.focus({ preventScroll: true });
};

/** The timeline just came on screen: it takes the focus asked for before, unless the person has moved it since. */
export const focusTimelineIfAsked = () => {
  const from = askedFrom;
  askedFrom = null;
  if (from !== null && (document.activeElement === from || document.activeElement === document.body)) timelineList()?.focus({ preventScroll: true });
};
