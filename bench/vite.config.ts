import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { immutableAssets } from '../scripts/immutableAssets.ts';

/**
 * The bench's baseline pages, built with the same Vite, React and React Flow as the app, apart
 * from the app's build: a bare React Flow page and a page that runs the engine with no UI.
 */
const page = (name: string) => fileURLToPath(new URL(`./${name}/index.html`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Served as the app's preview is: hashed files immutable (scripts/immutableAssets.ts).
  plugins: [react(), immutableAssets()],
  logLevel: 'warn',
  build: { chunkSizeWarningLimit: 5000, rollupOptions: { input: { bare: page('bare'), engine: page('engine') } } },
});
