#!/usr/bin/env node
// `npm run web -- --port N`: build the production web bundle and serve dist-web/ on http://127.0.0.1:N
// (default 5173). `--no-build` serves the existing bundle. The browser build is the same editor as the
// desktop app, with browser file pickers, downloads and local storage in place of native dialogs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { serveStatic } from './staticServer.mjs';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  return args[i].includes('=') ? args[i].split('=')[1] : args[i + 1];
};
const port = Number(flag('--port') ?? process.env.PORT ?? 5173);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port: expected a port number 0–65535, got "${flag('--port')}"`);
  process.exit(2);
}

if (!args.includes('--no-build')) {
  console.log('Building the web bundle…');
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const dist = path.join(root, 'dist-web');
if (!existsSync(path.join(dist, 'index.html'))) {
  console.error('dist-web/index.html is missing: run without --no-build first.');
  process.exit(1);
}
try {
  const { url } = await serveStatic(dist, port);
  console.log(`Marionette is running at ${url}  (Ctrl+C to stop)`);
} catch (e) {
  console.error(`Could not listen on 127.0.0.1:${port}: ${e.message}`);
  process.exit(1);
}
