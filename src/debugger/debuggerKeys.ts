/**
 * The debugger's keys, as in code debuggers: F5 Run (Continue when a run is paused), F10 Step,
 * Shift+F10 Step round, F6 Pause, Shift+F5 Reset, and Ctrl+Shift+D for the Debug layout. None of
 * them acts while a text field has the focus (the key is the field's), nor while a dialog is open.
 */
import { useApp, type AppState } from '../store/index.ts';
import { foreignOf } from '../store/graphSlice.ts';
import { isTyping } from '../ui/typing.ts';
import { focusTimeline } from './focus.ts';

export type DebuggerCommand = 'run' | 'step' | 'stepRound' | 'pause' | 'reset' | 'layout';

/** The keys of each command, as the buttons' tooltips and `aria-keyshortcuts` give them. */
export const COMMAND_KEYS: Record<DebuggerCommand, string> = {
  run: 'F5',
  step: 'F10',
  stepRound: 'Shift+F10',
  pause: 'F6',
  reset: 'Shift+F5',
  layout: 'Control+Shift+D',
};

export const commandOfKey = (event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): DebuggerCommand | null => {
  if (event.altKey) return null;
  if (event.ctrlKey || event.metaKey) return event.shiftKey && event.key.toLowerCase() === 'd' ? 'layout' : null;
  if (event.key === 'F5') return event.shiftKey ? 'reset' : 'run';
  if (event.key === 'F10') return event.shiftKey ? 'stepRound' : 'step';
  if (event.key === 'F6' && !event.shiftKey) return 'pause';
  return null;
};

/** Why Run is off over a LangGraph graph drawn from its server: the page holds only a stand-in of it, with no nodes. */
export const FOREIGN_RUN_NOTE = 'A LangGraph graph runs on its server: start it with New run on server (Connect to a LangGraph server)';

/**
 * What the run controls can do now: the buttons are enabled, and the keys act, by the same rule.
 * Over a LangGraph graph drawn from its server nothing starts here (its stand-in has no nodes):
 * Step and Continue act on the server's run when it is the live one and paused.
 */
export const runControls = (state: Pick<AppState, 'runStatus' | 'liveRunId' | 'runs' | 'pauseAsked' | 'documentId'>) => {
  const running = state.runStatus === 'running';
  const busy = running || state.runStatus === 'awaiting_approval';
  const canContinue = state.liveRunId !== null && state.runStatus === 'paused';
  const foreign = foreignOf(state.documentId) !== null;
  return {
    canStart: !busy && !foreign,
    canStep: foreign ? canContinue : !busy,
    canPause: running && !state.pauseAsked,
    canContinue,
    canReset: state.runs.length > 0 && !running,
  };
};

/** Switches between the editing and the Debug layout; each keeps its own panel sizes, and the choice is remembered. */
export const toggleDebugLayout = () => {
  useApp.setState((state) => ({ debugLayout: !state.debugLayout }));
};

/** The run's work started from a button or a key: the timeline takes the focus, where the run is read. */
export const startFrom = (work: () => Promise<void>) => {
  focusTimeline();
  void work();
};

/** Does a command, if the run controls allow it now; returns whether it did. */
export const runCommand = (command: DebuggerCommand): boolean => {
  const state = useApp.getState();
  const can = runControls(state);
  if (command === 'layout') toggleDebugLayout();
  else if (command === 'run' && can.canContinue) startFrom(state.continueRun);
  else if (command === 'run' && can.canStart) startFrom(state.run);
  else if (command === 'step' && can.canStep) startFrom(state.step);
  else if (command === 'stepRound' && can.canStart) startFrom(state.stepRound);
  else if (command === 'pause' && can.canPause) state.pause();
  else if (command === 'reset' && can.canReset) state.reset();
  else return false;
  return true;
};

/** Listens on the whole window; returns a stop function. */
export const listenForDebuggerKeys = () => {
  const onKeyDown = (event: KeyboardEvent) => {
    const command = commandOfKey(event);
    if (!command || isTyping(event.target) || document.querySelector('dialog[open]')) return;
    // F5 would reload the page and F6 move to the address bar: the key is the debugger's, whether or not the command can act now.
    event.preventDefault();
    runCommand(command);
  };
  window.addEventListener('keydown', onKeyDown);
  return () => window.removeEventListener('keydown', onKeyDown);
};
