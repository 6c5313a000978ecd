import { describe, expect, it } from 'vitest';
import { foreignDocumentId } from '../store/graphSlice.ts';
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
  const state = { runStatus: 'idle' as const, liveRunId: null, runs: [], pauseAsked: false, documentId: 'doc-1' };
  it('starts when nothing runs, pauses only a running run, continues only a paused live one', () => {
    expect(runControls(state)).toEqual({ canStart: true, canStep: true, canPause: false, canContinue: false, canReset: false });
    expect(runControls({ ...state, runStatus: 'running', liveRunId: 1, runs: [{}] as never })).toEqual({ canStart: false, canStep: false, canPause: true, canContinue: false, canReset: false });
    expect(runControls({ ...state, runStatus: 'running', liveRunId: 1, runs: [{}] as never, pauseAsked: true }).canPause).toBe(false);
    expect(runControls({ ...state, runStatus: 'paused', liveRunId: 1, runs: [{}] as never })).toEqual({ canStart: true, canStep: true, canPause: false, canContinue: true, canReset: true });
    expect(runControls({ ...state, runStatus: 'awaiting_approval', liveRunId: 1, runs: [{}] as never }).canStart).toBe(false);
  });

  it("over a LangGraph graph drawn from its server, nothing starts from its empty stand-in: Step and Continue act only on the server's paused run", () => {
    const foreign = { ...state, documentId: foreignDocumentId({ origin: 'http://127.0.0.1:2024', assistantId: 'a1' }) };
    expect(runControls(foreign)).toMatchObject({ canStart: false, canStep: false, canContinue: false });
    expect(runControls({ ...foreign, runStatus: 'paused', liveRunId: 1, runs: [{}] as never })).toMatchObject({ canStart: false, canStep: true, canContinue: true });
    expect(runControls({ ...foreign, runStatus: 'stopped', liveRunId: 1, runs: [{}] as never })).toMatchObject({ canStart: false, canStep: false, canContinue: false });
  });
});
