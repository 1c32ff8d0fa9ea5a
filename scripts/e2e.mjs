#!/usr/bin/env node
// `npm run test:e2e`: the end-to-end suite (tests/e2e) against the production build.
//   1. find a Chromium/Chrome (CHROME_PATH or the usual install paths) and/or an Electron binary;
//      with neither, fail and say how to get one — never pass silently;
//   2. build the web bundle as the test build (VITE_TEST_BUILD=1: readable canvas, window.__marionette);
//   3. serve dist-web/ on a free 127.0.0.1 port;
//   4. run `vitest run --project e2e` once per available target (web in Chromium; the real app through
//      playwright's Electron support when its binary exists), then stop the server.
// The same suite, with the same arguments, runs against each target (tests/e2e/harness/app.ts hides the
// difference). When the Electron binary is missing or cannot start, the Electron run is SKIPPED and the script
// says so, with the reason, at the start and in its last line — never silently.
//
// Environment:
//   CHROME_PATH                      a Chromium-based browser for the web target
//   MARIONETTE_ELECTRON_BINARY       an Electron executable to use instead of the `electron` package's
//   MARIONETTE_E2E_SKIP_ELECTRON=1   do not run the Electron target (said as a skip)
//   MARIONETTE_E2E_REQUIRE_ELECTRON=1  fail instead of skipping the Electron target (for machines that have it)
//   MARIONETTE_E2E_PLAN=1            print the targets and commands that would run, then exit (no build, no tests)
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { serveStatic } from './staticServer.mjs';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const require = createRequire(path.join(root, 'package.json'));
const started = Date.now();

const executable = (p) => { try { accessSync(p, constants.X_OK); return true; } catch { return false; } };

function findBrowser() {
  if (process.env.CHROME_PATH) {
    if (!executable(process.env.CHROME_PATH)) {
      console.error(`CHROME_PATH=${process.env.CHROME_PATH} is not an executable file.`);
      process.exit(1);
    }
    return process.env.CHROME_PATH;
  }
  const local = process.env.LOCALAPPDATA ?? '';
  const candidates = [
    '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium', '/opt/google/chrome/chrome',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
    path.join(local, 'Google\\Chrome\\Application\\chrome.exe'),
  ];
  return candidates.find((p) => p && executable(p)) ?? null;
}

/** The Electron executable, or why there is none that runs: { binary } or { skipped: reason }. */
function findElectron() {
  if (process.env.MARIONETTE_E2E_SKIP_ELECTRON) return { skipped: 'MARIONETTE_E2E_SKIP_ELECTRON is set' };
  let binary = process.env.MARIONETTE_ELECTRON_BINARY;
  if (!binary) {
    try {
      binary = require('electron');
    } catch (error) {
      return { skipped: `the electron package does not load (${String(error.message).split('\n')[0]}): is its binary downloaded? (\`npm install\` without ELECTRON_SKIP_BINARY_DOWNLOAD)` };
    }
  }
  if (typeof binary !== 'string' || !existsSync(binary)) {
    return { skipped: `no Electron binary at ${binary} (it was not downloaded: ELECTRON_SKIP_BINARY_DOWNLOAD at install, or no network)` };
  }
  // Electron opens real windows: on Linux it needs a display (xvfb-run provides one on a headless machine).
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { skipped: `no display for the Electron binary ${binary} (DISPLAY and WAYLAND_DISPLAY are unset; run under \`xvfb-run npm run test:e2e\`)` };
  }
  // A binary that cannot start (missing system libraries) is as good as none.
  const r = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
  if (r.status !== 0) {
    const why = `${r.stderr ?? ''}${r.stdout ?? ''}`.trim().split('\n')[0] || (r.error ? r.error.message : `exit status ${r.status ?? r.signal}`);
    return { skipped: `the Electron binary ${binary} cannot start: ${why}` };
  }
  return { binary, version: r.stdout.trim() };
}

const browser = findBrowser();
const found = findElectron();
const electron = found.binary ?? null;
const suiteArgs = ['run', '--project', 'e2e', ...process.argv.slice(2)];
const electronSkip = electron ? null : `test:e2e: SKIPPED the Electron app: ${found.skipped}. Only the web build is tested; the real app's main process, preload, native menus and file handles are NOT.`;
if (electronSkip) console.log(electronSkip);
if (electronSkip && process.env.MARIONETTE_E2E_REQUIRE_ELECTRON) {
  console.error('test:e2e: MARIONETTE_E2E_REQUIRE_ELECTRON is set, so a skipped Electron run is a failure.');
  process.exit(1);
}
if (process.env.MARIONETTE_E2E_PLAN) {
  const main = path.join(root, require(path.join(root, 'package.json')).main);
  console.log(`test:e2e plan: web target: ${browser ? `vitest ${suiteArgs.join(' ')} with MARIONETTE_E2E_TARGET=web MARIONETTE_BROWSER=${browser}` : 'none (no Chromium/Chrome)'}`);
  console.log(`test:e2e plan: electron target: ${electron ? `build scripts/build-electron.mjs, then vitest ${suiteArgs.join(' ')} with MARIONETTE_E2E_TARGET=electron MARIONETTE_ELECTRON=${electron} MARIONETTE_MAIN=${main} (Electron ${found.version})` : 'SKIPPED'}`);
  process.exit(browser || electron ? 0 : 1);
}
if (!browser && !electron) {
  console.error([
    'test:e2e: no browser and no Electron binary found, so the end-to-end tests cannot run.',
    'Install one of:',
    '  - Chromium or Chrome: on Debian/Ubuntu `sudo apt-get install -y chromium`; elsewhere install Google Chrome,',
    '    or point CHROME_PATH at any Chromium-based browser executable;',
    '  - the Electron binary: `npm install` without ELECTRON_SKIP_BINARY_DOWNLOAD (electron downloads it).',
  ].join('\n'));
  process.exit(1);
}

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) { console.error(`test:e2e: \`${[cmd, ...args].join(' ')}\` failed`); process.exit(r.status ?? 1); }
}

console.log('test:e2e: building the web bundle (test build)…');
run(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { VITE_TEST_BUILD: '1' });

const { server, url } = await serveStatic(path.join(root, 'dist-web'), 0);
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');

function runSuite(env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, ...suiteArgs], { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

let failed = false;
try {
  if (browser) {
    console.log(`test:e2e: web build at ${url} in ${browser}`);
    failed = (await runSuite({ MARIONETTE_E2E_TARGET: 'web', MARIONETTE_E2E_URL: url, MARIONETTE_BROWSER: browser })) !== 0 || failed;
  } else {
    console.log('test:e2e: no Chromium/Chrome found (set CHROME_PATH or install chromium); testing the Electron app only.');
  }
  if (electron) {
    console.log(`test:e2e: the Electron app (${electron})`);
    run(process.execPath, [path.join(root, 'scripts/build-electron.mjs')]);
    const main = path.join(root, require(path.join(root, 'package.json')).main);
    failed = (await runSuite({ MARIONETTE_E2E_TARGET: 'electron', MARIONETTE_ELECTRON: electron, MARIONETTE_MAIN: main })) !== 0 || failed;
  } else {
    console.log(electronSkip);
  }
} finally {
  server.close();
}
const ran = [browser ? 'web' : null, electron ? 'Electron' : null].filter(Boolean).join(' + ');
console.log(`test:e2e: ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s (${ran}${electron ? '' : `; Electron SKIPPED: ${found.skipped}`})`);
process.exit(failed ? 1 : 0);
