#!/usr/bin/env node
// The command line runs the TypeScript sources directly so that it works right after `npm ci`,
// with the very engine the browser runs.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
