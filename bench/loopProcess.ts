/**
 * The runtime's runs in Node, each in a Node process of its own (scripts/bench.ts): run in one
 * process, both sides shared V8's feedback on LangGraph's code and each other's heap, so a side's
 * time hung on what ran before it (the pairs' ratios ran 0.94–1.33 in one run). A fresh process
 * per run, the same for both sides, runs the loop as `loopscope run` does, alone.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LOOP_ARMS, loopClock, type LoopArm, type LoopRun, type LoopRunner } from './loops.ts';

const here = fileURLToPath(import.meta.url);

/** What a child process prints: its run, and its pid (a test checks that it is not the bench's). */
type ChildRun = LoopRun & { pid: number };

/**
 * A runner whose every run starts a Node process (with `npm run bench`'s flags: tsx, --expose-gc), which
 * loads the runtime, warms its side up with a run of `warm` rounds, collects the garbage, and then
 * times one run by its own CPU time: loading and warming up are not timed.
 */
export const inFreshProcesses = (warm: number): LoopRunner => ({
  method: `CPU time, every run in a fresh Node process after a run of ${warm.toLocaleString('en')} rounds of its own side there to warm up`,
  warmUp: async () => undefined,
  run: (arm, length) => runApart(arm, length, warm),
});

export const runApart = (arm: LoopArm, length: number, warm: number) =>
  new Promise<ChildRun>((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', '--import', 'tsx', here, arm, String(length), String(warm)], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`the ${arm} run failed: ${stderr || error.message}`));
      resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildRun);
    });
  });

/** The child: one side, warmed up, then timed. */
const child = async (arm: LoopArm, length: number, warm: number) => {
  const run = LOOP_ARMS[arm];
  const clock = loopClock();
  await run(warm);
  (globalThis as { gc?: () => void }).gc?.();
  const started = clock.now();
  const steps = await run(length);
  const result: ChildRun = { ms: clock.now() - started, steps, pid: process.pid };
  process.stdout.write(`${JSON.stringify(result)}\n`);
};

if (process.argv[1] === here) {
  const [arm, length, warm] = process.argv.slice(2);
  if (!(arm in LOOP_ARMS)) throw new Error(`no side ${arm}: ours or straight`);
  await child(arm as LoopArm, Number(length), Number(warm));
}
