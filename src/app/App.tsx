import { ReactFlowProvider } from '@xyflow/react';
import { startTransition, useCallback, useEffect, useState } from 'react';
import '../debugger/index.ts';
import { Canvas } from '../editor/index.ts';
import { visibleText } from '../graph/visible.ts';
import { useApp } from '../store/index.ts';
import { BrandIcon } from '../ui/canvasIcons.tsx';
import { Shown } from '../ui/Shown.tsx';
import { isNarrowWindow, RAIL_PX, RailPanel } from './RailPanel.tsx';
import { useSideFocus } from './sideFocus.ts';
import { SplitGroup, SplitPanel, Splitter } from './Splitter.tsx';
import type { PanelSpec } from './splitLayout.ts';

type Panels = typeof import('./panels.ts');
let panelsLoading: Promise<Panels> | null = null;
/**
 * The panels' contents, loaded once: by the shell after its first commit, and by the idle warm-up.
 * What their buttons do comes with them: the store's run and scenario actions.
 */
export const loadPanels = () =>
  (panelsLoading ??= Promise.all([import('./panels.ts'), useApp.getState().loadRunActions(), useApp.getState().loadScenarioActions()]).then(([panels]) => panels));

const CENTRE: Record<string, PanelSpec> = { 'canvas-panel': { min: 160 }, 'bottom-panel': { size: { percent: 30 }, min: 110, collapsible: true } };
/** The step detail under the inspector: a bar with its name when collapsed, or while a node or an edge is edited (sideFocus.ts). */
const SIDE: Record<string, PanelSpec> = { 'inspector-panel': { min: 120 }, 'step-panel': { size: { percent: 50 }, min: 120, collapsible: true, collapsedSize: RAIL_PX } };
const STEP_FOLDED: readonly string[] = ['step-panel'];
const NOTHING_FOLDED: readonly string[] = [];
/** The palette's column, and the view controls' in the Debug layout. */
const NARROW_COLUMN: PanelSpec = { size: { px: 116 }, min: 100, max: 260, collapsible: true };
/** Scenarios and problems beside the timeline: a rail when collapsed. */
const railAt = (startCollapsed: boolean): PanelSpec => ({ size: { percent: 24 }, min: 200, collapsible: true, collapsedSize: RAIL_PX, startCollapsed });
const mainPanels = (narrow: boolean): Record<string, PanelSpec> => ({
  'palette-panel': NARROW_COLUMN,
  'centre-panel': { min: 320 },
  'side-panel': { size: { px: narrow ? 280 : 320 }, min: 260, max: 640, collapsible: true },
});
const bottomPanels = (narrow: boolean): Record<string, PanelSpec> => ({
  'timeline-panel': { min: 280 },
  'scenarios-panel': railAt(narrow),
  'problems-panel': railAt(false),
});
/**
 * The Debug layout: the canvas across the top, and under it the view controls, the timeline and the
 * step detail side by side; scenarios and problems start as rails. The canvas starts as tall as the
 * editing layout's and wider, so a graph that fits there readable fits here (at 1280×720 a
 * 58% timeline left a 280 px strip, with the graph cut off or its text under 10 px). Its sizes are
 * remembered apart from the editing layout's (groups of their own).
 */
const DEBUG_CENTRE: Record<string, PanelSpec> = { 'canvas-panel': { min: 160 }, 'bottom-panel': { size: CENTRE['bottom-panel'].size, min: 110 } };
const DEBUG_BOTTOM: Record<string, PanelSpec> = {
  'view-panel': NARROW_COLUMN,
  'timeline-panel': { min: 280 },
  'step-panel': { size: { percent: 42 }, min: 240 },
  'scenarios-panel': railAt(true),
  'problems-panel': railAt(true),
};

/**
 * The shell: a one-row header, the palette, the canvas with the debugger's timeline and the
 * problems under it, and the inspector and step detail on the right; or, in the Debug layout, the
 * canvas over the timeline and the step detail side by side. Every panel resizes and collapses on
 * its splitter (drag it, or focus it and use the arrow keys); the canvas gets the rest.
 */
export function App() {
  const name = useApp((state) => state.graph.name);
  const scenarioCount = useApp((state) => state.graph.scenarios.length);
  const problemCount = useApp((state) => state.problems?.length ?? 0);
  const debug = useApp((state) => state.debugLayout);
  const layoutId = (group: string) => `loopscope-${group}${debug ? '-debug' : ''}`;
  // A first visit on a laptop: the scenarios start as a rail and the inspector narrower, so the canvas and the timeline's reasons fit.
  const [narrow] = useState(isNarrowWindow);
  const [main] = useState(() => mainPanels(narrow));
  const [bottom] = useState(() => bottomPanels(narrow));
  // The canvas first: the panels' contents load after the first commit and render in a transition,
  // in tasks of their own the browser can paint between. Rendered with the canvas, their forms,
  // lists and first layout held back a 1,000-node graph opened from the autosave by about 150 ms
  // (bench). Their panels are there from the start, so nothing moves when they fill.
  const [panels, setPanels] = useState<Panels | null>(null);
  const [side, setSide] = useSideFocus();
  const showStepDetail = useCallback(() => setSide('step'), [setSide]);
  useEffect(() => {
    void loadPanels().then((loaded) => startTransition(() => setPanels(loaded)));
  }, []);
  const viewControls = panels && <panels.ViewControls />;
  const stepDetail = panels && <panels.StepDetail />;
  const stepSplitter = <Splitter controls="step-panel" label="Resize the step detail" />;
  return (
    <ReactFlowProvider>
      <div className="app">
        <header className="app-header">
          <div className="brand">
            <BrandIcon size={18} className="brand-mark" /> <span>Loopscope</span>
          </div>
          {/* Control and bidi characters shown escaped: a file's name cannot reorder or hide the heading. */}
          <h1 className="graph-name" title={visibleText(name)}><Shown text={name} /></h1>
          {panels && <panels.EditorToolbar />}
          {panels && <panels.RunToolbar />}
        </header>
        {panels && <panels.HostConsent />}
        {panels && <panels.ServerStartConsent />}
        {panels && <panels.GrantConsent />}
        {panels && <panels.OtherTabNotice />}
        {/* The canvas keeps its place in the tree in both layouts (slots left empty, groups renamed): switching never remounts it. */}
        <SplitGroup orientation="horizontal" className={`app-main${debug ? ' debug-layout' : ''}`} id={layoutId('main')} panels={main}>
          {!debug && (
            <>
              <SplitPanel id="palette-panel">
                <aside className="app-palette" aria-label="Palette">
                  {panels && <panels.Palette />}
                  {viewControls}
                </aside>
              </SplitPanel>
              <Splitter controls="palette-panel" label="Resize the palette" />
            </>
          )}
          <SplitPanel id="centre-panel">
            <SplitGroup orientation="vertical" id={layoutId('centre')} panels={debug ? DEBUG_CENTRE : CENTRE}>
              <SplitPanel id="canvas-panel">
                <main className="app-canvas">
                  <Canvas />
                  {panels && <panels.RunOnCanvas />}
                  {panels && <panels.ServerCanvas />}
                </main>
              </SplitPanel>
              <Splitter controls="bottom-panel" label="Resize the timeline" />
              <SplitPanel id="bottom-panel">
                {/* Over the timeline's row, never over the canvas, where the runs' parting is marked. */}
                {panels && <panels.RunComparison />}
                <SplitGroup orientation="horizontal" className="app-bottom" id={layoutId('bottom')} panels={debug ? DEBUG_BOTTOM : bottom}>
                  {debug && (
                    <>
                      <SplitPanel id="view-panel">
                        <aside className="app-palette" aria-label="View">{viewControls}</aside>
                      </SplitPanel>
                      <Splitter controls="view-panel" label="Resize the view controls" />
                    </>
                  )}
                  <SplitPanel id="timeline-panel">
                    {panels && <panels.Timeline />}
                  </SplitPanel>
                  {debug && (
                    <>
                      {stepSplitter}
                      <SplitPanel id="step-panel">{stepDetail}</SplitPanel>
                    </>
                  )}
                  <Splitter controls="scenarios-panel" label="Resize the scenarios" />
                  <RailPanel id="scenarios-panel" title={`Scenarios (${scenarioCount})`}>
                    {panels && <panels.ScenariosPanel />}
                  </RailPanel>
                  <Splitter controls="problems-panel" label="Resize the problems" />
                  <RailPanel id="problems-panel" title={`Problems (${problemCount})`}>
                    {panels && <panels.ProblemsPanel />}
                  </RailPanel>
                </SplitGroup>
              </SplitPanel>
            </SplitGroup>
          </SplitPanel>
          {!debug && (
            <>
              <Splitter controls="side-panel" label="Resize the inspector" />
              <SplitPanel id="side-panel">
                <SplitGroup orientation="vertical" className="app-side" id="loopscope-side" panels={SIDE} folded={side === 'inspector' ? STEP_FOLDED : NOTHING_FOLDED} onUnfold={showStepDetail}>
                  <SplitPanel id="inspector-panel">
                    {panels && <panels.Inspector />}
                  </SplitPanel>
                  {stepSplitter}
                  <RailPanel id="step-panel" title="Step detail">
                    {stepDetail}
                  </RailPanel>
                </SplitGroup>
              </SplitPanel>
            </>
          )}
        </SplitGroup>
      </div>
    </ReactFlowProvider>
  );
}
