/**
 * One Content-Security-Policy with no 'unsafe-inline' (shared/ipc.ts): the built page carries exactly the
 * policy main sends as a header, the browser enforces it (an injected style attribute and inline script are
 * blocked and reported), and using the editor — the default creature, its plots and inspector, a glTF and
 * an FBX creature, a particle example, every menu — reports no violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { MENU, launchApp, openExample, type App } from './harness/app';
import { hook } from './harness/hook';
import { contentSecurityPolicy } from '../../shared/ipc';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

const violations = () => app.page.evaluate(() => (window as unknown as { __marionetteCspViolations?: string[] }).__marionetteCspViolations ?? null);
const poll = <T>(fn: () => Promise<T>, timeout = 30_000) => expect.poll(fn, { timeout, interval: 100 });

describe('Content-Security-Policy', () => {
  it.runIf(process.env.MARIONETTE_E2E_TARGET !== 'electron')('the page enforces the one policy, and the editor breaks none of it', async () => {
    const page = app.page;
    const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(meta).toBe(contentSecurityPolicy());
    await poll(async () => (await hook(page, 'creature'))?.fileName).toBeTruthy();

    await app.pickFiles(MENU.openCreature, [path.resolve('assets/creatures/humanoid.fbx')]);
    await poll(async () => (await hook(page, 'creature'))?.fileName).toBe('humanoid.fbx');
    await app.pickFiles(MENU.openCreature, [path.resolve('assets/creatures/armed-mine.gltf'), path.resolve('assets/creatures/armed-mine.bin')]);
    await poll(async () => (await hook(page, 'creature'))?.fileName).toBe('armed-mine.gltf');
    for (const menu of ['File', 'Edit', 'View', 'Rig', 'Help']) {
      await page.getByRole('menubar').getByRole('menuitem', { name: menu, exact: true }).click();
      await page.keyboard.press('Escape');
    }
    await openExample(app, 'Ragdoll', 'ragdoll', 'assets/examples/ragdoll.json');
    await page.waitForTimeout(1500); // a few frames of the particle scene, its plots and overlays
    expect(await violations()).toEqual([]);
    expect(app.pageErrors).toEqual([]);

    // The policy is live: what an injected script would try is blocked and reported.
    await page.evaluate(() => {
      const probe = document.createElement('div');
      probe.setAttribute('style', 'color: red');
      document.body.append(probe);
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.append(script);
    });
    await poll(async () => (await violations())?.map((v) => v.split(' ')[0])).toEqual(['style-src-attr', 'script-src-elem']);
    expect(await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan ?? false)).toBe(false);
  }, 120_000);
});
