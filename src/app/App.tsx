import { ReactFlowProvider } from '@xyflow/react';
import { RunComparison, RunToolbar, ScenariosPanel, StepDetail, Timeline } from '../debugger/index.ts';
import { Canvas, EditorToolbar, Inspector, Palette, ProblemsPanel } from '../editor/index.ts';
import { useApp } from '../store/index.ts';

export function App() {
  const name = useApp((state) => state.graph.name);
  return (
    <ReactFlowProvider>
      <div className="app">
        <header className="app-header">
          <div className="brand" aria-label="Loopscope">
            <span className="brand-mark" aria-hidden="true">◎</span> Loopscope
          </div>
          <h1 className="graph-name">{name}</h1>
          <EditorToolbar />
          <RunToolbar />
        </header>
        <aside className="app-palette" aria-label="Palette">
          <Palette />
        </aside>
        <main className="app-canvas">
          <Canvas />
        </main>
        <aside className="app-side">
          <Inspector />
          <StepDetail />
        </aside>
        <section className="app-bottom">
          <Timeline />
          <ScenariosPanel />
          <ProblemsPanel />
        </section>
        <RunComparison />
      </div>
    </ReactFlowProvider>
  );
}
