#!/usr/bin/env node
// Bundles the Electron main process and preload with esbuild into CommonJS:
//   electron/main.ts    → out/main/main.cjs        (package.json "main")
//   electron/preload.ts → out/preload/preload.cjs  (sandboxed: it may require only 'electron')
// The renderer is built separately by Vite into dist-web/ (npm run build:web).
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['electron'],
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  absWorkingDir: root,
};

const started = performance.now();
await Promise.all([
  build({ ...common, entryPoints: ['electron/main.ts'], outfile: 'out/main/main.cjs' }),
  build({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'out/preload/preload.cjs' }),
]);

// A sandboxed preload that requires anything but 'electron' fails at window start-up with an error only
// visible in the page's console. Catch it here instead.
const preload = await readFile(path.join(root, 'out/preload/preload.cjs'), 'utf8');
const required = [...preload.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
const forbidden = [...new Set(required.filter((name) => name !== 'electron'))];
if (forbidden.length > 0) {
  console.error(`build-electron: the sandboxed preload requires ${forbidden.join(', ')}; it may require only 'electron'.`);
  process.exit(1);
}
console.log(`build-electron: out/main/main.cjs, out/preload/preload.cjs (${(preload.length / 1024).toFixed(1)} KiB) in ${Math.round(performance.now() - started)} ms`);
