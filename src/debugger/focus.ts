/**
 * Moves keyboard focus to the timeline's list, so the steps of the run just started are one arrow
 * key away; the timeline then keeps focus on the step it selects.
 */
export const focusTimeline = () => document.querySelector<HTMLElement>('[role="list"][aria-label="Timeline"]')?.focus({ preventScroll: true });
