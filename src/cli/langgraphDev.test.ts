import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { langGraphCli } from './langgraphDev.ts';

describe('the LangGraph dev server serve starts', () => {
  it('is the langgraphjs command its package publishes, and it answers as the LangGraph CLI', () => {
    const cli = langGraphCli();
    expect(existsSync(cli)).toBe(true);
    const help = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8', env: { ...process.env, LANGGRAPH_CLI_NO_ANALYTICS: '1' } });
    expect(help.stdout).toMatch(/\bdev\b/);
  });
});
