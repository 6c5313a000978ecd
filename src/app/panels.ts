/**
 * The panels' contents: palette, timeline, scenarios, problems, inspector and step detail. They are
 * not on the first screen (the canvas is), so they come in a chunk of their own, loaded once the
 * shell has committed, and the page's first script is that much smaller. They check what people
 * write against the graph's schemas (a new node's defaults, a form, a trace file), so zod and the
 * schemas come with them, imported by the modules that use them.
 */
export { GrantConsent, HostConsent, loadStepView, loadTimelineRun, RunComparison, RunOnCanvas, RunToolbar, ScenariosPanel, ServerCanvas, ServerStartConsent, StepDetail, Timeline } from '../debugger/panels.ts';
export { EditorToolbar, Inspector, loadSelectionForms, OtherTabNotice, Palette, ProblemsPanel, ViewControls } from '../editor/panels.ts';
