/**
 * What the person granted reaches every run the page makes: the controller's options carry it
 * (`granted`, RunDeps.granted), for a fresh run and for a run restored after a reload, which asks
 * before it goes on rather than running on nothing granted.
 */
import { describe, expect, it, vi } from 'vitest';
import type { GraphFile, PermissionMode } from '../graph/index.ts';
import { findTemplate } from '../graph/templates/index.ts';
import { forgetAllowedHosts, useHostRequest } from '../network/hosts.ts';
import { setServerUrl } from '../network/mcpServers.ts';
import type { RunOptions } from '../runtime/controller.ts';
import { useApp } from './index.ts';
import { savedRuns } from './runActions.ts';

const { made } = vi.hoisted(() => ({ made: [] as RunOptions[] }));

// The store's controllers, as the runtime makes them: their options are what a run is given.
vi.mock('../runtime/index.ts', async (importOriginal) => {
  const runtime = await importOriginal<typeof import('../runtime/index.ts')>();
  return {
    ...runtime,
    createController: (graph: GraphFile, options: RunOptions) => {
      made.push(options);
      return runtime.createController(graph, options);
    },
  };
});

/** The security template asking for workspace, naming an MCP server at an address (its mock nodes never call it). */
const asking = (): GraphFile => ({
  ...findTemplate('securityclaw')!.graph(),
  permissions: { mode: 'workspace' },
  skills: { ...findTemplate('securityclaw')!.graph().skills, files: { type: 'mcp', access: 'read', server: 'files', tool: 'read_text_file', timeoutMs: 1000 } },
});

/** Answers the next host question with this grant; resolves with the steps the shown run had then. */
const grantNext = (granted: PermissionMode) =>
  new Promise<number>((resolve) => {
    const stop = useHostRequest.subscribe(({ request }) => {
      if (!request) return;
      stop();
      resolve(useApp.getState().runs.find((run) => run.id === useApp.getState().activeRunId)?.stepCount ?? 0);
      request.answer(granted);
    });
  });

describe('the grant of a page run', () => {
  it('a fresh run gets what the person granted, not what the file asks; a restored run asks before it goes on, and gets what is granted then', async () => {
    useApp.getState().reset();
    useApp.setState({ seed: 1, scenarioChoices: new Map(), speedMs: 0 });
    useApp.getState().load(asking());
    setServerUrl('files', 'http://127.0.0.1:4431/mcp');

    const first = grantNext('read-only');
    await useApp.getState().step();
    await first;
    expect(made.at(-1)?.granted).toBe('read-only');

    // A reload: the run comes back with nothing granted in this page, and nothing is asked yet.
    const saved = savedRuns(useApp.getState());
    forgetAllowedHosts();
    await useApp.getState().restoreRuns(saved);
    const restored = made.at(-1) as RunOptions;
    expect(restored.granted).toBeUndefined();
    expect(useHostRequest.getState().request).toBeNull();

    // Going on asks first, before the run moves a step.
    const asked = grantNext('workspace');
    await useApp.getState().continueRun();
    expect(await asked).toBe(1);
    expect(restored.granted).toBe('workspace');
    expect(useApp.getState().runs[0].stepCount).toBeGreaterThan(1);
  });
});
