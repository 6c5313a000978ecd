export * from './common.ts';
export * from './describe.ts';
export * from './hosts.ts';
export * from './kinds/index.ts';
export * from './limits.ts';
export * from './migrations.ts';
export * from './model.ts';
export * from './parse.ts';
export * from './problems.ts';
export * from './schema.ts';
export * from './skills.ts';
// The templates' JSON is not in this barrel: it loads when one is opened (./templates/index.ts).
export { blankGraph, loadTemplates } from './templates/builtIn.ts';
export * from './untrusted.ts';
export * from './validate.ts';
export * from './when.ts';
export * from './ops.ts';
export * from './inspectorOps.ts';
export * from './state.ts';
