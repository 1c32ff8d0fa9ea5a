#!/usr/bin/env node
// `npm start`: build the renderer (Vite → dist-web/) and the main/preload bundles (→ out/), then launch
// the desktop app. Extra arguments go to Electron (`npm start -- path/to/robot.marionette`).
//
// The Electron binary is downloaded by electron's own postinstall (allowed in package.json's
// allowScripts, so npm 12 runs it too). Where that did not happen — the script was blocked or skipped, the
// machine was offline — and the download host answers, we run Electron's own installer
// (node node_modules/electron/install.js) once. Where there is still nothing to launch (offline,
// ELECTRON_SKIP_BINARY_DOWNLOAD set, the download failed) we say so at once — before spending a minute on
// builds — and exit non-zero rather than hang.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import https from 'node:https';
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

/** The host electron's installer downloads from: ELECTRON_MIRROR (or its npm-config spellings) or GitHub. */
function downloadBase() {
  const env = process.env;
  return env.npm_config_electron_mirror || env.NPM_CONFIG_ELECTRON_MIRROR || env.ELECTRON_MIRROR
    || 'https://github.com/electron/electron/releases/download/';
}

/** Whether @electron/get's cache already holds this version's zip (then the installer needs no network). */
function cachedZip(version) {
  const env = process.env;
  const cacheRoot = env.electron_config_cache || (process.platform === 'darwin'
    ? path.join(homedir(), 'Library', 'Caches', 'electron')
    : process.platform === 'win32'
      ? path.join(env.LOCALAPPDATA || path.join(homedir(), 'AppData', 'Local'), 'electron', 'Cache')
      : path.join(env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'electron'));
  const zip = `electron-v${version}-${process.platform}-${process.arch}.zip`;
  try {
    return readdirSync(cacheRoot).some((entry) => existsSync(path.join(cacheRoot, entry, zip)));
  } catch {
    return false;
  }
}

/** Resolves with '' when `url`'s host answers an HTTP request within `ms`, else with the reason. */
function reachable(url, ms = 8000) {
  return new Promise((resolve) => {
    let request;
    try {
      request = (url.startsWith('http:') ? http : https).request(url, { method: 'HEAD', timeout: ms }, (response) => {
        response.resume();
        resolve('');
      });
    } catch (error) {
      resolve(error.message);
      return;
    }
    request.on('timeout', () => request.destroy(new Error(`no answer within ${ms / 1000} s`)));
    request.on('error', (error) => resolve(error.message));
    request.end();
  });
}

/**
 * Runs Electron's own installer once when the binary is missing and a download can work. Returns what
 * happened, for the message when there is still no binary.
 */
async function installElectron() {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    return 'ELECTRON_SKIP_BINARY_DOWNLOAD is set, so npm start did not try to download it';
  }
  let installer;
  let version;
  try {
    installer = require.resolve('electron/install.js');
    version = require('electron/package.json').version;
  } catch (error) {
    return `the electron package is not installed (${error.message.split('\n')[0]}); run npm install`;
  }
  const base = downloadBase();
  if (!cachedZip(version)) {
    const unreachable = await reachable(base);
    if (unreachable) return `npm start did not run Electron's installer: ${base} cannot be reached (${unreachable})`;
  }
  console.log(`npm start: the Electron ${version} binary is missing; running Electron's installer (node node_modules/electron/install.js)`);
  const result = spawnSync(process.execPath, [installer], {
    cwd: path.dirname(installer), stdio: 'inherit', timeout: 15 * 60_000,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: undefined },
  });
  if (result.error) return `Electron's installer could not run: ${result.error.message}`;
  if (result.status !== 0) return `Electron's installer failed (exit ${result.status ?? result.signal}; its output is above)`;
  return "Electron's installer finished but the binary is still not where electron expects it";
}

let electron = electronBinary();
if (!electron.path) {
  const attempt = await installElectron();
  const after = electronBinary();
  electron = after.path ? after : { problem: `${electron.problem}; ${attempt}` };
}
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
