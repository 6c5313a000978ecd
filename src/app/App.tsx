import { ReactFlowProvider } from '@xyflow/react';
import { useState } from 'react';
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { HostConsent, RunComparison, RunToolbar, ScenariosPanel, StepDetail, Timeline } from '../debugger/index.ts';
import { Canvas, EditorToolbar, Inspector, OtherTabNotice, Palette, ProblemsPanel, ViewControls } from '../editor/index.ts';
import { useApp } from '../store/index.ts';
import { BrandIcon } from '../ui/icons.tsx';
import { isNarrowWindow, RailPanel } from './RailPanel.tsx';

/** Where the person's panel sizes are remembered between visits. */
const layoutStorage = (() => {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
})();

/**
 * The shell: a one-row header, the palette, the canvas with the debugger's timeline and the
 * problems under it, and the inspector and step detail on the right. Every panel resizes and
 * collapses on its splitter (drag it, or focus it and use the arrow keys); the canvas gets the rest.
 */
export function App() {
  const name = useApp((state) => state.graph.name);
  const scenarioCount = useApp((state) => state.graph.scenarios.length);
  // A first visit on a laptop: the scenarios start as a rail and the inspector narrower, so the canvas and the timeline's reasons fit.
  const [narrow] = useState(isNarrowWindow);
  const main = useDefaultLayout({ id: 'loopscope-main', storage: layoutStorage });
  const centre = useDefaultLayout({ id: 'loopscope-centre', storage: layoutStorage });
  const side = useDefaultLayout({ id: 'loopscope-side', storage: layoutStorage });
  const bottom = useDefaultLayout({ id: 'loopscope-bottom', storage: layoutStorage });
  return (
    <ReactFlowProvider>
      <div className="app">
        <header className="app-header">
          <div className="brand">
            <BrandIcon size={18} className="brand-mark" aria-hidden="true" /> <span>Loopscope</span>
          </div>
          <h1 className="graph-name" title={name}>{name}</h1>
          <EditorToolbar />
          <RunToolbar />
        </header>
        <HostConsent />
        <OtherTabNotice />
        <Group orientation="horizontal" className="app-main" id="loopscope-main" {...main}>
          <Panel id="palette-panel" defaultSize={116} minSize={100} maxSize={260} collapsible>
            <aside className="app-palette" aria-label="Palette">
              <Palette />
              <ViewControls />
            </aside>
          </Panel>
          <Separator className="splitter" aria-label="Resize the palette" />
          <Panel id="centre-panel" minSize={320}>
            <Group orientation="vertical" id="loopscope-centre" {...centre}>
              <Panel id="canvas-panel" minSize={160}>
                <main className="app-canvas">
                  <Canvas />
                </main>
              </Panel>
              <Separator className="splitter" aria-label="Resize the timeline" />
              <Panel id="bottom-panel" defaultSize="30%" minSize={110} collapsible>
                <Group orientation="horizontal" className="app-bottom" id="loopscope-bottom" {...bottom}>
                  <Panel id="timeline-panel" minSize={280}>
                    <Timeline />
                  </Panel>
                  <Separator className="splitter" aria-label="Resize the scenarios" />
                  <RailPanel id="scenarios-panel" title={`Scenarios (${scenarioCount})`} defaultSize="24%" minSize={200} startCollapsed={narrow}>
                    <ScenariosPanel />
                  </RailPanel>
                  <Separator className="splitter" aria-label="Resize the problems" />
                  <Panel id="problems-panel" defaultSize="24%" minSize={200} collapsible>
                    <ProblemsPanel />
                  </Panel>
                </Group>
              </Panel>
            </Group>
          </Panel>
          <Separator className="splitter" aria-label="Resize the inspector" />
          <Panel id="side-panel" defaultSize={narrow ? 280 : 320} minSize={260} maxSize={640} collapsible>
            <Group orientation="vertical" className="app-side" id="loopscope-side" {...side}>
              <Panel id="inspector-panel" minSize={120} collapsible>
                <Inspector />
              </Panel>
              <Separator className="splitter" aria-label="Resize the step detail" />
              <Panel id="step-panel" defaultSize="50%" minSize={120} collapsible>
                <StepDetail />
              </Panel>
            </Group>
          </Panel>
        </Group>
        <RunComparison />
      </div>
    </ReactFlowProvider>
  );
}
