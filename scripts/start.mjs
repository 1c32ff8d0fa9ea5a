#!/usr/bin/env node
// `npm start`: build the renderer (Vite → dist-web/) and the main/preload bundles (→ out/), then launch
// the desktop app. Extra arguments go to Electron (`npm start -- path/to/robot.marionette`).
//
// The Electron binary is downloaded by electron's own postinstall; where that was skipped
// (ELECTRON_SKIP_BINARY_DOWNLOAD=1, offline CI) there is nothing to launch, so we say so at once —
// before spending a minute on builds — and exit non-zero rather than hang.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));

function electronBinary() {
  try {
    // electron's main export is the path of its binary; it throws when the download never happened.
    const binary = require('electron');
    return typeof binary === 'string' && existsSync(binary) ? { path: binary } : { problem: `the Electron binary is missing (expected at ${binary})` };
  } catch (error) {
    return { problem: `the Electron binary is not installed (${error.message.split('\n')[0]})` };
  }
}

const electron = electronBinary();
if (!electron.path) {
  console.error([
    `npm start: cannot launch the desktop app: ${electron.problem}.`,
    '',
    'To get it (needs network access to github.com or ELECTRON_MIRROR):',
    '  node node_modules/electron/install.js     runs the download that ELECTRON_SKIP_BINARY_DOWNLOAD skipped',
    '  or reinstall it:  rm -rf node_modules/electron && npm install   (without ELECTRON_SKIP_BINARY_DOWNLOAD set)',
    '  then check with:  npx electron --version',
    '',
    'Without Electron, the same editor runs in a browser:',
    '  npm run web                     builds the web version and serves it on http://127.0.0.1:5173',
  ].join('\n'));
  process.exit(1);
}

function run(label, command, args) {
  console.log(`npm start: ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`npm start: ${label} failed${result.error ? `: ${result.error.message}` : ` (exit ${result.status ?? result.signal})`}.`);
    process.exit(1);
  }
}

run('building the renderer (vite build)', process.execPath, [require.resolve('vite/bin/vite.js'), 'build']);
run('building main and preload (esbuild)', process.execPath, [path.join(root, 'scripts', 'build-electron.mjs')]);

console.log('npm start: launching Marionette');
const child = spawn(electron.path, [root, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env: { ...process.env, ELECTRON_RUN_AS_NODE: undefined } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('error', (error) => {
  console.error(`npm start: Electron could not start: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
