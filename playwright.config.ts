import { defineConfig, devices } from '@playwright/test';

// scripts/e2e.mjs sets these; several engineers run the suite at once, each on a port and build folder of their own.
const port = Number(process.env.E2E_PORT ?? 4173);
const outDir = process.env.E2E_OUT ?? 'dist';
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const inCi = Boolean(process.env.CI);

export default defineConfig({
  testDir: 'e2e',
  // Per-run folders, so that parallel runs do not overwrite each other's results.
  outputDir: `test-results/${port}`,
  fullyParallel: true,
  forbidOnly: inCi,
  // The machine has 2 cores, shared with the preview server.
  workers: 2,
  retries: inCi ? 1 : 0,
  reporter: 'list',
  // Budgets, not waits: every step waits on a condition and goes on as soon as it holds. They are
  // sized for a 2-core machine with other work on it (a CPU hog, other test runs), where one
  // render of the canvas can take seconds.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // Recording a trace (a snapshot and a screenshot at every action) costs each journey CPU time it
    // keeps for nothing when it passes: CI records the retry of a failed journey (retries: 1), and a
    // local run, which does not retry, the journey that failed.
    trace: inCi ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1400, height: 900 },
        launchOptions: {
          executablePath,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-dev-shm-usage',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
  ],
  webServer: {
    command: `npx vite preview --outDir ${JSON.stringify(outDir)} --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
