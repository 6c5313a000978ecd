#!/usr/bin/env node
// The command line, built into plain JavaScript (scripts/buildCli.ts, run by `npm ci` and `npm pack`
// through `prepare`): it starts as fast as any Node script.

// `loopscope run … | head`: the reader has what it wanted and closed the pipe. Stop quietly, as
// Unix tools do, instead of dying on the next write with a stack trace.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

let cli;
try {
  cli = await import('../build/cli/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('build/cli/main.js')) throw error;
  process.stderr.write('loopscope: the command line is not built; in the Loopscope repository run `npm run build:cli` (npm ci does it)\n');
  process.exit(2);
}
process.exitCode = await cli.main(process.argv.slice(2));
