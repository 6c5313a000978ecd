/**
 * The LangGraph fixtures (src/runtime/fixtures/langgraph: graphs written with LangGraph's own
 * building blocks) served by the LangGraph dev server: copied into a temporary folder that links
 * Loopscope's node_modules (the server writes its state into its project's folder), on a port the
 * system chooses, stopped by the server's own PID.
 */
import { cp, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLangGraphServer } from '../src/cli/langgraphDev.ts';

const root = fileURLToPath(new URL('../', import.meta.url));

/** `dir`: the served copy of the fixtures (with their langgraph.json), for `loopscope open` to read their source. */
export const serveLangGraphFixtures = async (): Promise<{ url: string; dir: string; stop: () => Promise<void> }> => {
  const dir = await mkdtemp(join(tmpdir(), 'loopscope-langgraph-'));
  await cp(join(root, 'src/runtime/fixtures/langgraph'), dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'loopscope-langgraph-fixtures', private: true, type: 'module' })}\n`);
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const removeDir = () => rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  try {
    const server = await startLangGraphServer(dir, process.env);
    return { url: server.url, dir, stop: async () => {
      await server.stop();
      await removeDir();
    } };
  } catch (error) {
    await removeDir();
    throw error;
  }
};
