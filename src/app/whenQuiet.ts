/** Input that means the person is using the page (a drag is a stream of pointer moves). */
const INPUT_EVENTS = ['pointerdown', 'pointermove', 'pointerup', 'pointercancel', 'keydown', 'wheel'] as const;

/**
 * Runs `work` once the person has left the page alone for `quietMs` (no pointer, key or wheel input,
 * no button held; counted from `quietSince`) and the page is idle. For warm-ups that evaluate large
 * modules: that blocks the page for tens of milliseconds in one piece, which in the middle of a drag
 * is a dropped frame.
 */
export const whenQuiet = (work: () => void, quietMs = 3000, target: EventTarget = window, quietSince = performance.now()) => {
  let lastInput = quietSince;
  let pressed = false;
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onInput = (event: Event) => {
    lastInput = performance.now();
    if (event.type === 'pointerdown') pressed = true;
    if (event.type === 'pointerup' || event.type === 'pointercancel') pressed = false;
  };
  const idle = (then: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(then) : setTimeout(then, 0));
  const check = () => {
    const wait = lastInput + quietMs - performance.now();
    if (pressed || wait > 0) {
      timer = setTimeout(check, Math.max(wait, quietMs / 4));
      return;
    }
    idle(() => {
      if (cancelled) return;
      // Input may have come while the page waited to be idle.
      if (pressed || performance.now() - lastInput < quietMs) return check();
      for (const type of INPUT_EVENTS) target.removeEventListener(type, onInput, true);
      work();
    });
  };
  for (const type of INPUT_EVENTS) target.addEventListener(type, onInput, { capture: true, passive: true });
  check();
  return () => {
    cancelled = true;
    clearTimeout(timer);
    for (const type of INPUT_EVENTS) target.removeEventListener(type, onInput, true);
  };
};
