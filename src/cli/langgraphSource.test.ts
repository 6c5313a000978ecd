import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentSource, importedSource } from './langgraphSource.ts';

let root: string;
let outside: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'loopscope-source-'));
  outside = await mkdtemp(join(tmpdir(), 'loopscope-outside-'));
  await mkdir(join(root, 'src'));
  await writeFile(join(root, 'src/agent.ts'), 'export const graph = 1;\n');
  await writeFile(join(outside, 'secret.ts'), 'secret\n');
  await symlink(join(outside, 'secret.ts'), join(root, 'src/linked.ts'));
  await writeFile(join(root, 'langgraph.json'), JSON.stringify({ graphs: { agent: './src/agent.ts:graph', escape: '../secret.ts:graph', linked: './src/linked.ts:graph', gone: './src/none.ts:graph' } }));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe("a LangGraph agent's source, as langgraph.json names it", () => {
  it('answers the file of the graph, its path in the folder and its export', async () => {
    expect(await agentSource(root, 'agent')).toEqual({ graph: 'agent', file: 'src/agent.ts', exported: 'graph', text: 'export const graph = 1;\n' });
  });

  it('reads nothing outside the folder, through a path or a link, and says why there is no source', async () => {
    await expect(agentSource(root, 'escape')).rejects.toThrow(/outside the folder|is not in the folder/);
    await expect(agentSource(root, 'linked')).rejects.toThrow('./src/linked.ts: outside the folder');
    await expect(agentSource(root, 'gone')).rejects.toThrow('./src/none.ts, the file langgraph.json names for gone, is not in the folder');
    await expect(agentSource(root, 'toString')).rejects.toThrow('langgraph.json names no graph "toString"');
    await rm(join(root, 'langgraph.json'));
    await expect(agentSource(root, 'agent')).rejects.toThrow("the folder has no langgraph.json, which names each graph's file and export");
  });

  it('never waits on a named pipe, and reads a regular file only to its bound', async () => {
    execFileSync('mkfifo', [join(root, 'src/pipe.ts')]);
    await writeFile(join(root, 'src/big.ts'), 'x'.repeat(1_000_001));
    await writeFile(join(root, 'langgraph.json'), JSON.stringify({ graphs: { pipe: './src/pipe.ts:graph', big: './src/big.ts:graph' } }));
    await expect(agentSource(root, 'pipe')).rejects.toThrow('./src/pipe.ts is a named pipe, not a regular file: it is not read');
    await expect(agentSource(root, 'big')).rejects.toThrow('./src/big.ts is too large: 1.0 MB, at most 1.0 MB is read');
  });
});

describe('a file the agent\'s source imports its router from', () => {
  beforeEach(async () => {
    await mkdir(join(root, 'src/routing'));
    await writeFile(join(root, 'src/router.ts'), 'export function route() { return "a"; }\n');
    await writeFile(join(root, 'src/routing/index.ts'), 'export { route } from "../router.js";\n');
    await writeFile(join(root, 'src/plain.mjs'), 'export const x = 1;\n');
    await symlink(join(outside, 'secret.ts'), join(root, 'src/leak.ts'));
    execFileSync('mkfifo', [join(root, 'src/fifo.ts')]);
    await writeFile(join(root, 'src/huge.ts'), 'x'.repeat(1_000_001));
  });

  it('is found as TypeScript and Node resolve a relative import: ./router.js is router.ts, ./routing its index', async () => {
    const router = { file: 'src/router.ts', text: 'export function route() { return "a"; }\n' };
    expect(await importedSource(root, 'src/agent.ts', './router.js')).toEqual(router);
    expect(await importedSource(root, 'src/agent.ts', './router')).toEqual(router);
    expect(await importedSource(root, 'src/routing/index.ts', '../router.js')).toEqual(router);
    expect((await importedSource(root, 'src/agent.ts', './routing')).file).toBe('src/routing/index.ts');
    expect((await importedSource(root, 'src/agent.ts', './plain.mjs')).file).toBe('src/plain.mjs');
  });

  it('is read with the graph file\'s limits: inside the folder, a regular file up to 1 MB, a relative import only', async () => {
    await expect(importedSource(root, 'src/agent.ts', '../../secret.ts')).rejects.toThrow(/outside the folder|is not a file of the folder/);
    await expect(importedSource(root, 'src/agent.ts', './leak.ts')).rejects.toThrow('./leak.ts, imported by src/agent.ts: outside the folder');
    await expect(importedSource(root, '../outside.ts', './router.ts')).rejects.toThrow(/outside the folder|is not in the folder/);
    await expect(importedSource(root, 'src/agent.ts', '@langchain/langgraph')).rejects.toThrow('@langchain/langgraph is not a relative import: only files of the folder are read');
    await expect(importedSource(root, 'src/agent.ts', './fifo.ts')).rejects.toThrow('src/fifo.ts is a named pipe, not a regular file: it is not read');
    await expect(importedSource(root, 'src/agent.ts', './huge.ts')).rejects.toThrow('src/huge.ts is too large: 1.0 MB, at most 1.0 MB is read');
    await expect(importedSource(root, 'src/agent.ts', './nowhere.js')).rejects.toThrow('./nowhere.js, imported by src/agent.ts, is not a file of the folder');
  });
});
