/**
 * Every panel of the shell, once: its name, where it sits in each layout and how its contents load.
 * The shell (App.tsx) draws both layouts from this list (panelLayout.ts), so a new panel is its own
 * file and one entry here (docs/architecture.md, "Adding a panel"). The list is on the first screen;
 * what it loads is not: each panel's contents load after the shell's first commit (the canvas is the
 * first screen), together (panels.ts), with zod and the schemas the modules that use them import.
 */
import type { ComponentType } from 'react';
import type { AppState } from '../store/index.ts';
import { RAIL_PX } from './RailPanel.tsx';
import type { PanelSpec } from './splitLayout.ts';

export type LayoutName = 'edit' | 'debug';
/** Places of the shell that hold contents side by side: the header's toolbars, the questions over the page, what is drawn over the canvas, the row over the timeline's. */
export type Place = 'header' | 'dialogs' | 'canvas' | 'over-bottom';
/** The splitter groups made of panels: `main` left of the canvas, `bottom` under it, `side` right of it (the editing layout's inspector column). */
export type GroupName = 'main' | 'bottom' | 'side';

/** A panel of its own in a splitter group, in the list's order; the one without a size fills the rest. */
export interface OwnSlot {
  group: GroupName;
  /** Its sizes; a function of whether the window is narrow (under 1,400 px) at the first visit. */
  spec: PanelSpec | ((narrow: boolean) => PanelSpec);
  /** Drawn as a rail with its title when collapsed (RailPanel.tsx), or as an `aside` named by its title. */
  frame?: 'rail' | 'aside';
  /** What its splitter's label calls it: `Resize the ${resize}`. */
  resize?: string;
  /** Yields its room to the inspector while a node or an edge is edited (sideFocus.ts). */
  yields?: boolean;
}
/** Contents drawn in a place of the shell, or inside another panel (by its id), after that panel's own. */
export type Slot = OwnSlot | { place: Place } | { inside: string };

export interface PanelEntry {
  /** Its splitter panel is `${id}-panel` (the remembered sizes are kept under it). */
  id: string;
  /** Its name on a rail or an aside; a function of the store for a count. */
  title?: string | ((state: AppState) => string);
  /** Its contents. */
  load: () => Promise<ComponentType>;
  /** Loads what the panel shows later (a run, a step), while the page is idle after the first screen. */
  warmUp?: () => Promise<unknown>;
  /** Where it is in each layout; a layout it is not in leaves it out. */
  at: Partial<Record<LayoutName, Slot>>;
}

/** The panels' contents, all in one module (panels.ts): one chunk, loaded after the shell's first commit. */
const panels = () => import('./panels.ts');

const BOTH = (slot: Slot): Partial<Record<LayoutName, Slot>> => ({ edit: slot, debug: slot });
/** The palette's column, and the view controls' in the Debug layout. */
const NARROW_COLUMN: PanelSpec = { size: { px: 116 }, min: 100, max: 260, collapsible: true };
/** Scenarios and problems beside the timeline: a rail when collapsed. */
const railAt = (startCollapsed: boolean): PanelSpec => ({ size: { percent: 24 }, min: 200, collapsible: true, collapsedSize: RAIL_PX, startCollapsed });

/**
 * The editing layout: the palette, the canvas with the timeline, scenarios and problems under it,
 * the inspector over the step detail on the right. The Debug layout: the canvas over the view
 * controls, the timeline and the step detail side by side; scenarios and problems start as rails.
 */
export const PANELS: readonly PanelEntry[] = [
  { id: 'editor-toolbar', load: () => panels().then((module) => module.EditorToolbar), at: BOTH({ place: 'header' }) },
  { id: 'run-toolbar', load: () => panels().then((module) => module.RunToolbar), at: BOTH({ place: 'header' }) },
  // The questions a run asks, loaded (lazy.tsx) once one is asked.
  { id: 'host-consent', load: () => panels().then((module) => module.HostConsent), at: BOTH({ place: 'dialogs' }) },
  { id: 'server-start-consent', load: () => panels().then((module) => module.ServerStartConsent), at: BOTH({ place: 'dialogs' }) },
  { id: 'grant-consent', load: () => panels().then((module) => module.GrantConsent), at: BOTH({ place: 'dialogs' }) },
  { id: 'other-tab-notice', load: () => panels().then((module) => module.OtherTabNotice), at: BOTH({ place: 'dialogs' }) },
  {
    id: 'palette',
    title: 'Palette',
    load: () => panels().then((module) => module.Palette),
    at: { edit: { group: 'main', spec: NARROW_COLUMN, frame: 'aside', resize: 'palette' } },
  },
  {
    id: 'view',
    title: 'View',
    load: () => panels().then((module) => module.ViewControls),
    at: { edit: { inside: 'palette' }, debug: { group: 'bottom', spec: NARROW_COLUMN, frame: 'aside', resize: 'view controls' } },
  },
  { id: 'run-on-canvas', load: () => panels().then((module) => module.RunOnCanvas), at: BOTH({ place: 'canvas' }) },
  // A LangGraph server's graph that Loopscope did not make, and two runs side by side (over the timeline's row, never over the canvas, where the runs' parting is marked).
  { id: 'server-canvas', load: () => panels().then((module) => module.ServerCanvas), at: BOTH({ place: 'canvas' }) },
  { id: 'run-comparison', load: () => panels().then((module) => module.RunComparison), at: BOTH({ place: 'over-bottom' }) },
  {
    id: 'timeline',
    load: () => panels().then((module) => module.Timeline),
    warmUp: () => panels().then((module) => module.loadTimelineRun()),
    at: BOTH({ group: 'bottom', spec: { min: 280 } }),
  },
  {
    id: 'inspector',
    load: () => panels().then((module) => module.Inspector),
    warmUp: () => panels().then((module) => module.loadSelectionForms()),
    at: { edit: { group: 'side', spec: { min: 120 } } },
  },
  {
    // Under the inspector, a bar with its name when collapsed or while a node or an edge is edited;
    // beside the timeline in the Debug layout.
    id: 'step',
    title: 'Step detail',
    load: () => panels().then((module) => module.StepDetail),
    warmUp: () => panels().then((module) => module.loadStepView()),
    at: {
      edit: { group: 'side', spec: { size: { percent: 50 }, min: 120, collapsible: true, collapsedSize: RAIL_PX }, frame: 'rail', resize: 'step detail', yields: true },
      debug: { group: 'bottom', spec: { size: { percent: 42 }, min: 240 }, resize: 'step detail' },
    },
  },
  {
    id: 'scenarios',
    title: (state) => `Scenarios (${state.graph.scenarios.length})`,
    load: () => panels().then((module) => module.ScenariosPanel),
    // A first visit on a laptop: the scenarios start as a rail, so the canvas and the timeline's reasons fit.
    at: { edit: { group: 'bottom', spec: railAt, frame: 'rail', resize: 'scenarios' }, debug: { group: 'bottom', spec: railAt(true), frame: 'rail', resize: 'scenarios' } },
  },
  {
    id: 'problems',
    title: (state) => `Problems (${state.problems?.length ?? 0})`,
    load: () => panels().then((module) => module.ProblemsPanel),
    at: { edit: { group: 'bottom', spec: railAt(false), frame: 'rail', resize: 'problems' }, debug: { group: 'bottom', spec: railAt(true), frame: 'rail', resize: 'problems' } },
  },
];
