#!/usr/bin/env node
// The command line runs the TypeScript sources directly so that it works right after `npm ci`,
// with the very engine the browser runs.
import { register } from 'tsx/esm/api';

// `loopscope run … | head`: the reader has what it wanted and closed the pipe. Stop quietly, as
// Unix tools do, instead of dying on the next write with a stack trace.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
