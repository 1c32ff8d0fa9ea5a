/**
 * scripts/e2e.mjs runs the end-to-end suite once per target: the web build in Chromium and the real Electron
 * app when its binary exists. This machine has no Electron binary, so the Electron run cannot happen here;
 * these tests check, in the script's plan mode (MARIONETTE_E2E_PLAN=1: no build, no tests), that with a
 * binary that starts it WOULD run the same suite with the same arguments against the app, and that every
 * reason to skip it is said plainly — or fails the run when MARIONETTE_E2E_REQUIRE_ELECTRON asks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadMain } from './fakeMain';

let tmp: string;
let chrome: string;
let electron: string;
let broken: string;

function script(name: string, body: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`);
  fs.chmodSync(file, 0o755);
  return file;
}

function plan(env: Record<string, string | undefined>): { status: number | null; out: string } {
  const base = { ...process.env };
  for (const name of ['MARIONETTE_E2E_SKIP_ELECTRON', 'MARIONETTE_E2E_REQUIRE_ELECTRON', 'MARIONETTE_ELECTRON_BINARY', 'CHROME_PATH', 'DISPLAY', 'WAYLAND_DISPLAY']) delete base[name];
  const r = spawnSync(process.execPath, ['scripts/e2e.mjs', 'tests/e2e/files.test.ts'], {
    encoding: 'utf8', timeout: 60_000,
    env: Object.fromEntries(Object.entries({ ...base, MARIONETTE_E2E_PLAN: '1', CHROME_PATH: chrome, DISPLAY: ':99', ...env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'marionette-e2e-plan-'));
  chrome = script('chromium', 'exit 0');
  electron = script('electron', 'echo v39.2.0');
  broken = script('electron-broken', 'echo "electron: error while loading shared libraries: libnss3.so: cannot open shared object file" >&2; exit 127');
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('scripts/e2e.mjs targets', () => {
  it('with an Electron binary that starts: the same suite, same arguments, against the built app', () => {
    const { status, out } = plan({ MARIONETTE_ELECTRON_BINARY: electron });
    expect(status).toBe(0);
    expect(out).not.toMatch(/SKIPPED/);
    const web = /web target: vitest (.+?) with MARIONETTE_E2E_TARGET=web/.exec(out);
    const app = /electron target: build scripts\/build-electron\.mjs, then vitest (.+?) with MARIONETTE_E2E_TARGET=electron MARIONETTE_ELECTRON=(\S+) MARIONETTE_MAIN=(\S+) \(Electron v39\.2\.0\)/.exec(out);
    expect(web?.[1]).toBe('run --project e2e tests/e2e/files.test.ts');
    expect(app?.[1]).toBe(web?.[1]);
    expect(app?.[2]).toBe(electron);
    // The main script it launches is package.json's main, which build-electron.mjs writes.
    expect(app?.[3]).toBe(path.resolve('out/main/main.cjs'));
    expect(JSON.parse(fs.readFileSync('package.json', 'utf8')).main).toBe('out/main/main.cjs');
  });

  it.each([
    ['no binary', () => ({ MARIONETTE_ELECTRON_BINARY: path.join(tmp, 'missing', 'electron') }), /SKIPPED the Electron app: no Electron binary at .*missing\/electron \(it was not downloaded/],
    ['a binary that cannot start', () => ({ MARIONETTE_ELECTRON_BINARY: broken }), /SKIPPED the Electron app: the Electron binary .*electron-broken cannot start: electron: error while loading shared libraries: libnss3\.so/],
    ['no display', () => ({ MARIONETTE_ELECTRON_BINARY: electron, DISPLAY: undefined }), process.platform === 'linux' ? /SKIPPED the Electron app: no display .*xvfb-run/ : /^(?![\s\S]*SKIPPED)/],
    ['asked to skip', () => ({ MARIONETTE_ELECTRON_BINARY: electron, MARIONETTE_E2E_SKIP_ELECTRON: '1' }), /SKIPPED the Electron app: MARIONETTE_E2E_SKIP_ELECTRON is set/],
  ] as const)('%s: says it skips the Electron app and why, and what is then not tested', (_name, env, reason) => {
    const { status, out } = plan(env());
    expect(status).toBe(0);
    expect(out).toMatch(reason);
    if (/SKIPPED/.test(out)) {
      expect(out).toMatch(/Only the web build is tested; the real app's main process, preload, native menus and file handles are NOT\./);
      expect(out).toMatch(/electron target: SKIPPED/);
    }
    expect(out).toMatch(/web target: vitest run --project e2e tests\/e2e\/files\.test\.ts/);
  });

  it('MARIONETTE_E2E_REQUIRE_ELECTRON turns a skip into a failure', () => {
    const { status, out } = plan({ MARIONETTE_ELECTRON_BINARY: path.join(tmp, 'missing', 'electron'), MARIONETTE_E2E_REQUIRE_ELECTRON: '1' });
    expect(status).toBe(1);
    expect(out).toMatch(/a skipped Electron run is a failure/);
    expect(plan({ MARIONETTE_ELECTRON_BINARY: electron, MARIONETTE_E2E_REQUIRE_ELECTRON: '1' }).status).toBe(0);
  });

  it('on this machine (no Electron binary): the skip is said, with the reason', () => {
    const { status, out } = plan({});
    expect(status).toBe(0);
    if (/electron target: build/.test(out)) return; // a machine with a working binary runs it
    expect(out).toMatch(/test:e2e: SKIPPED the Electron app: .+\. Only the web build is tested/);
  });
});

describe('the Electron target gets its own userData', () => {
  it('an unpackaged main honours MARIONETTE_USER_DATA (tests/e2e/harness/app.ts sets it per run); a packaged one ignores it', async () => {
    const creature = path.join(tmp, 'robot.glb');
    fs.copyFileSync(path.resolve('assets/creatures/armed-mine.glb'), creature);
    const recentIn = (folder: string) => path.join(folder, 'recent-files.json');
    for (const packaged of [false, true]) {
      const run = path.join(tmp, packaged ? 'packaged' : 'unpackaged');
      const perRun = path.join(run, 'e2e-user-data');
      fs.mkdirSync(path.join(run, 'os-user-data'), { recursive: true }); // Electron creates its default userData
      const main = await loadMain(run, [], path.join(run, 'os-user-data'), { packaged, env: { MARIONETTE_USER_DATA: perRun } });
      main.openAnswers.push(creature);
      const picked = await main.request({ type: 'pick-creature' });
      expect(picked, picked.error).toMatchObject({ ok: true, value: { name: 'robot.glb' } });
      // The pick went on the recent list: in the per-run folder only when unpackaged.
      await expect.poll(() => fs.existsSync(recentIn(packaged ? path.join(run, 'os-user-data') : perRun)), { timeout: 5000 }).toBe(true);
      expect(fs.existsSync(recentIn(packaged ? perRun : path.join(run, 'os-user-data')))).toBe(false);
    }
    expect(process.env.MARIONETTE_USER_DATA).toBeUndefined();
  }, 60_000);
});
