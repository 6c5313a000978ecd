import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whenQuiet } from './whenQuiet.ts';

describe('whenQuiet', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('waits for a quiet spell, and input puts it off', () => {
    const target = new EventTarget();
    const work = vi.fn();
    whenQuiet(work, 1000, target);
    vi.advanceTimersByTime(600);
    target.dispatchEvent(new Event('pointermove'));
    vi.advanceTimersByTime(900);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(work).toHaveBeenCalledTimes(1);
    // Done once: later quiet spells run nothing more.
    vi.advanceTimersByTime(5000);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('counts the quiet spell from when it is told, before it was called', () => {
    const target = new EventTarget();
    const work = vi.fn();
    const since = performance.now();
    vi.advanceTimersByTime(800);
    whenQuiet(work, 1000, target, since);
    vi.advanceTimersByTime(100);
    expect(work).not.toHaveBeenCalled();
    // Its first look comes a quarter of the spell later at the soonest: a spell begun 800 ms before, and over.
    vi.advanceTimersByTime(300);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('does not run while a button is held, however still the pointer', () => {
    const target = new EventTarget();
    const work = vi.fn();
    whenQuiet(work, 1000, target);
    target.dispatchEvent(new Event('pointerdown'));
    vi.advanceTimersByTime(10_000);
    expect(work).not.toHaveBeenCalled();
    target.dispatchEvent(new Event('pointerup'));
    vi.advanceTimersByTime(1500);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('can be called off', () => {
    const target = new EventTarget();
    const work = vi.fn();
    const cancel = whenQuiet(work, 1000, target);
    cancel();
    vi.advanceTimersByTime(5000);
    expect(work).not.toHaveBeenCalled();
  });

  it('can be called off while it waits for the page to be idle', () => {
    const target = new EventTarget();
    const work = vi.fn();
    const cancel = whenQuiet(work, 1000, target);
    // At 1000 ms the quiet spell is over and it waits for an idle moment (a timer here).
    vi.advanceTimersByTime(1000);
    cancel();
    vi.advanceTimersByTime(5000);
    expect(work).not.toHaveBeenCalled();
  });
});
