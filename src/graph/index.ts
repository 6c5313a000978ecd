export * from './common.ts';
export * from './describe.ts';
export * from './kinds/index.ts';
export * from './limits.ts';
export * from './model.ts';
export * from './problems.ts';
// The templates' JSON is not in this barrel: it loads when one is opened (./templates/index.ts).
export { blankGraph } from './templates/builtIn.ts';
/** The built-in templates with their JSON, loaded when one is first opened. */
export const loadTemplates = () => import('./templates/index.ts');
export * from './untrusted.ts';
export * from './ops.ts';
// Not in this index: what checks a graph against its schemas (parse.ts, validate.ts, state.ts,
// migrations.ts), which loads after the page's first screen, nor the edits the canvas does not make
// (inspectorOps.ts, placement.ts, scenarioOps.ts), which load with the panels that make them, nor
// the reading of untrusted bytes (bytes.ts); import those modules themselves.
export * from './serialize.ts';
export type { Problem, ProblemCode } from './validate.ts';
// The schemas' own modules are not in this index either (schema.ts, skills.ts, when.ts), nor hosts.ts:
// the first screen needs their types only; import their values from the modules themselves.
export type { GraphEdge, GraphFile, GraphFileInput, GraphNode, Limits, NodeOfKind, PermissionMode, Scenario, ScenarioExpect, TokenExpectation } from './schema.ts';
export type { Access, HttpSkill, LlmSkill, McpSkill, MockEntry, MockSkill, Skill } from './skills.ts';
export type { Op, When } from './when.ts';
export type { ContactedHost } from './hosts.ts';
