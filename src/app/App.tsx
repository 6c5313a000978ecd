import { ReactFlowProvider } from '@xyflow/react';
import { startTransition, useCallback, useEffect, useState, type ComponentType } from 'react';
import '../debugger/index.ts';
import { Canvas } from '../editor/index.ts';
import { visibleText } from '../graph/visible.ts';
import { useApp, type AppState } from '../store/index.ts';
import { BrandIcon } from '../ui/canvasIcons.tsx';
import { Shown } from '../ui/Shown.tsx';
import { isNarrowWindow, RailPanel } from './RailPanel.tsx';
import { useSideFocus } from './sideFocus.ts';
import { SplitGroup, SplitPanel, Splitter } from './Splitter.tsx';
import { deriveLayout, specsOf, type DerivedLayout, type GroupPanel } from './panelLayout.ts';
import { PANELS, type LayoutName, type PanelEntry, type Place } from './panelRegistry.ts';
import type { PanelSpec } from './splitLayout.ts';

/** Each panel's contents by its id (panelRegistry.ts). */
export type LoadedPanels = ReadonlyMap<string, ComponentType>;
let panelsLoading: Promise<LoadedPanels> | null = null;
/**
 * The panels' contents, loaded once: by the shell after its first commit, and by the idle warm-up.
 * What their buttons do comes with them: the store's run and scenario actions.
 */
export const loadPanels = () =>
  (panelsLoading ??= Promise.all([Promise.all(PANELS.map((entry) => entry.load())), useApp.getState().loadRunActions(), useApp.getState().loadScenarioActions()]).then(
    ([loaded]) => new Map(PANELS.map((entry, at) => [entry.id, loaded[at]])),
  ));

const CENTRE: Record<string, PanelSpec> = { 'canvas-panel': { min: 160 }, 'bottom-panel': { size: { percent: 30 }, min: 110, collapsible: true } };
/**
 * In the Debug layout the canvas starts as tall as the editing layout's and wider, so a graph that
 * fits there readable fits here (at 1280×720 a 58% timeline left a 280 px strip, with the graph cut
 * off or its text under 10 px). Its sizes are remembered apart from the editing layout's (groups of their own).
 */
const DEBUG_CENTRE: Record<string, PanelSpec> = { 'canvas-panel': { min: 160 }, 'bottom-panel': { size: CENTRE['bottom-panel'].size, min: 110 } };
const NOTHING_FOLDED: readonly string[] = [];
/** The main group's own: the canvas's column fills it; the side's column (the inspector's) is narrower on a laptop, so the canvas fits. */
const mainSpecs = (narrow: boolean): Record<string, PanelSpec> => ({
  'centre-panel': { min: 320 },
  'side-panel': { size: { px: narrow ? 280 : 320 }, min: 260, max: 640, collapsible: true },
});

/** A panel's contents once loaded, and what is drawn inside it besides (by the list). */
function Contents({ of, panels }: { of: readonly PanelEntry[] | undefined; panels: LoadedPanels | null }) {
  return of?.map((entry) => {
    const Panel = panels?.get(entry.id);
    return Panel ? <Panel key={entry.id} /> : null;
  });
}

const titleOf = (entry: PanelEntry) => (state: AppState) => (typeof entry.title === 'function' ? entry.title(state) : (entry.title ?? ''));

/** A panel of a splitter group, framed as its slot says, with its splitter on the side of the group's filling panel. */
function GroupPanelView({ panel, layout, panels }: { panel: GroupPanel; layout: DerivedLayout; panels: LoadedPanels | null }) {
  const { entry, id, slot } = panel;
  const title = useApp(titleOf(entry));
  const inner = <Contents of={layout.contents.get(entry.id)} panels={panels} />;
  const framed =
    slot.frame === 'rail' ? (
      <RailPanel id={id} title={title}>{inner}</RailPanel>
    ) : (
      <SplitPanel id={id}>{slot.frame === 'aside' ? <aside className="app-palette" aria-label={title}>{inner}</aside> : inner}</SplitPanel>
    );
  const splitter = slot.resize && <Splitter controls={id} label={`Resize the ${slot.resize}`} />;
  return (
    <>
      {panel.splitter === 'before' && splitter}
      {framed}
      {panel.splitter === 'after' && splitter}
    </>
  );
}

const groupPanels = (list: readonly GroupPanel[], layout: DerivedLayout, panels: LoadedPanels | null) =>
  list.map((panel) => <GroupPanelView key={panel.id} panel={panel} layout={layout} panels={panels} />);

/**
 * The shell: a one-row header, the palette, the canvas with the debugger's timeline and the
 * problems under it, and the inspector and step detail on the right; or, in the Debug layout, the
 * canvas over the timeline and the step detail side by side. Every panel resizes and collapses on
 * its splitter (drag it, or focus it and use the arrow keys); the canvas gets the rest.
 */
export function App() {
  const name = useApp((state) => state.graph.name);
  const debug = useApp((state) => state.debugLayout);
  const layoutId = (group: string) => `loopscope-${group}${debug ? '-debug' : ''}`;
  // A first visit on a laptop: the panels that matter least start collapsed or narrower, so the canvas and the timeline's reasons fit.
  const [layouts] = useState(() => {
    const narrow = isNarrowWindow();
    const derive = (name: LayoutName) => {
      const layout = deriveLayout(PANELS, name, narrow);
      return { layout, main: specsOf(layout.groups.main, mainSpecs(narrow)), bottom: specsOf(layout.groups.bottom), side: specsOf(layout.groups.side), yielding: layout.groups.side.filter((panel) => panel.slot.yields).map((panel) => panel.id) };
    };
    return { edit: derive('edit'), debug: derive('debug') };
  });
  const { layout, main, bottom, side, yielding } = layouts[debug ? 'debug' : 'edit'];
  // The canvas first: the panels' contents load after the first commit and render in a transition,
  // in tasks of their own the browser can paint between. Rendered with the canvas, their forms,
  // lists and first layout held back a 1,000-node graph opened from the autosave by about 150 ms
  // (bench). Their panels are there from the start, so nothing moves when they fill.
  const [panels, setPanels] = useState<LoadedPanels | null>(null);
  const [sideFocus, setSideFocus] = useSideFocus();
  const showStepDetail = useCallback(() => setSideFocus('step'), [setSideFocus]);
  useEffect(() => {
    void loadPanels().then((loaded) => startTransition(() => setPanels(loaded)));
  }, []);
  const placed = (place: Place) => <Contents of={layout.contents.get(place)} panels={panels} />;
  return (
    <ReactFlowProvider>
      <div className="app">
        <header className="app-header">
          <div className="brand">
            <BrandIcon size={18} className="brand-mark" /> <span>Loopscope</span>
          </div>
          {/* Control and bidi characters shown escaped: a file's name cannot reorder or hide the heading. */}
          <h1 className="graph-name" title={visibleText(name)}><Shown text={name} /></h1>
          {placed('header')}
        </header>
        {placed('dialogs')}
        {/* The canvas keeps its place in the tree in both layouts (slots left empty, groups renamed): switching never remounts it. */}
        <SplitGroup orientation="horizontal" className={`app-main${debug ? ' debug-layout' : ''}`} id={layoutId('main')} panels={main}>
          {groupPanels(layout.groups.main, layout, panels)}
          <SplitPanel id="centre-panel">
            <SplitGroup orientation="vertical" id={layoutId('centre')} panels={debug ? DEBUG_CENTRE : CENTRE}>
              <SplitPanel id="canvas-panel">
                <main className="app-canvas">
                  <Canvas />
                  {placed('canvas')}
                </main>
              </SplitPanel>
              <Splitter controls="bottom-panel" label="Resize the timeline" />
              <SplitPanel id="bottom-panel">
                {placed('over-bottom')}
                <SplitGroup orientation="horizontal" className="app-bottom" id={layoutId('bottom')} panels={bottom}>
                  {groupPanels(layout.groups.bottom, layout, panels)}
                </SplitGroup>
              </SplitPanel>
            </SplitGroup>
          </SplitPanel>
          {layout.groups.side.length > 0 && (
            <>
              <Splitter controls="side-panel" label="Resize the inspector" />
              <SplitPanel id="side-panel">
                <SplitGroup orientation="vertical" className="app-side" id="loopscope-side" panels={side} folded={sideFocus === 'inspector' ? yielding : NOTHING_FOLDED} onUnfold={showStepDetail}>
                  {groupPanels(layout.groups.side, layout, panels)}
                </SplitGroup>
              </SplitPanel>
            </>
          )}
        </SplitGroup>
      </div>
    </ReactFlowProvider>
  );
}
