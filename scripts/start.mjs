#!/usr/bin/env node
// `npm start`: the dev server, opening a browser tab only where one can be opened. On a headless
// Linux machine (no DISPLAY, no Wayland) vite's --open would print a spawn stack trace, so the URL
// vite prints is the way in there.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const hasDesktop = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const args = [...(hasDesktop ? ['--open'] : []), ...process.argv.slice(2)];

const server = spawn(join(root, 'node_modules', '.bin', 'vite'), args, { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
