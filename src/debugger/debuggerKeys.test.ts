import { describe, expect, it } from 'vitest';
import { commandOfKey, runControls } from './debuggerKeys.ts';

const key = (name: string, modifiers: { shift?: boolean; ctrl?: boolean; meta?: boolean; alt?: boolean } = {}) =>
  commandOfKey({ key: name, shiftKey: modifiers.shift ?? false, ctrlKey: modifiers.ctrl ?? false, metaKey: modifiers.meta ?? false, altKey: modifiers.alt ?? false });

describe('the debugger keys, as in code debuggers', () => {
  it('F5 runs (or continues), Shift+F5 resets, F10 steps, Shift+F10 steps a round, F6 pauses, Ctrl+Shift+D switches the layout', () => {
    expect(key('F5')).toBe('run');
    expect(key('F5', { shift: true })).toBe('reset');
    expect(key('F10')).toBe('step');
    expect(key('F10', { shift: true })).toBe('stepRound');
    expect(key('F6')).toBe('pause');
    expect(key('D', { ctrl: true, shift: true })).toBe('layout');
    expect(key('d', { meta: true, shift: true })).toBe('layout');
  });

  it('leaves every other key alone: the browser’s Ctrl+F5, the editor’s Ctrl+D, letters', () => {
    expect(key('F5', { ctrl: true })).toBeNull();
    expect(key('F10', { alt: true })).toBeNull();
    expect(key('d', { ctrl: true })).toBeNull();
    expect(key('F6', { shift: true })).toBeNull();
    expect(key('s')).toBeNull();
  });
});

describe('runControls: what the buttons and the keys may do now', () => {
  const state = { runStatus: 'idle' as const, liveRunId: null, runs: [], pauseAsked: false };
  it('starts when nothing runs, pauses only a running run, continues only a paused live one', () => {
    expect(runControls(state)).toEqual({ canStart: true, canPause: false, canContinue: false, canReset: false });
    expect(runControls({ ...state, runStatus: 'running', liveRunId: 1, runs: [{}] as never })).toEqual({ canStart: false, canPause: true, canContinue: false, canReset: false });
    expect(runControls({ ...state, runStatus: 'running', liveRunId: 1, runs: [{}] as never, pauseAsked: true }).canPause).toBe(false);
    expect(runControls({ ...state, runStatus: 'paused', liveRunId: 1, runs: [{}] as never })).toEqual({ canStart: true, canPause: false, canContinue: true, canReset: true });
    expect(runControls({ ...state, runStatus: 'awaiting_approval', liveRunId: 1, runs: [{}] as never }).canStart).toBe(false);
  });
});
