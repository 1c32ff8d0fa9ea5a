/**
 * The authoring controls under the particle solver (docs/particles.md), and the switch back to a rigid
 * creature:
 *  - on a particle example (File › Examples › Ragdoll: no rig, no bodies) the toolbar's Go limp / Power on
 *    work — the particle pose drive — with tooltips that name it; the timeline's Key target is disabled,
 *    saying there is no steering under the particle solver;
 *  - on the humanoid under particles the joint inspector's badge reads limp at first (a particle ragdoll
 *    starts limp) and powered after Power on, as the recording does;
 *  - opening the humanoid right after a grab on the particle ragdoll raises no page error (uPlot's axes
 *    used to be drawn from a null data array while the preview switched engines).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { MENU, launchApp, type App } from './harness/app';
import { hook } from './harness/hook';
import type { ParticleTestHook } from '../../renderer/src/preview/particleTestHook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

type Fn = { [K in keyof ParticleTestHook]: ParticleTestHook[K] extends (...a: never[]) => unknown ? K : never }[keyof ParticleTestHook];
function particles<K extends Fn>(page: Page, name: K, ...args: Parameters<ParticleTestHook[K]>): Promise<Awaited<ReturnType<ParticleTestHook[K]>>> {
  return page.evaluate(([n, a]) => {
    const h = (window as unknown as { __marionetteParticles: Record<string, (...x: unknown[]) => unknown> }).__marionetteParticles;
    return h[n as string]!(...(a as unknown[]));
  }, [name, args] as const) as Promise<Awaited<ReturnType<ParticleTestHook[K]>>>;
}

const poll = <T>(fn: () => Promise<T>, timeout = 30_000) => expect.poll(fn, { timeout, interval: 100 });

async function openExample(page: Page, label: string, name: string, file?: string): Promise<void> {
  if (app.target === 'electron') {
    await app.menu({ menu: 'File', item: 'Examples', command: { kind: 'open-example', name, ...(file ? { path: path.resolve(file) } : {}) } });
    return;
  }
  await page.getByRole('menubar').getByRole('menuitem', { name: 'File', exact: true }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: 'Examples', exact: true }).hover();
  await page.getByRole('menu').getByRole('menuitem', { name: label, exact: true }).click();
}


/** Press on a bone of the particle ragdoll, drag it up, hold it for `frames` frames, release. */
async function grabSpine(page: Page, frames: number): Promise<void> {
  const at = (await particles(page, 'boneScreen', 'spine'))!;
  expect(at).not.toBeNull();
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  await page.mouse.move(at.x + 10, at.y - 10, { steps: 2 });
  await page.mouse.move(at.x + 60, at.y - 150, { steps: 5 });
  for (let i = 0; i < frames; i++) await page.keyboard.press('.');
  await poll(() => particles(page, 'shownIndex')).toBe(frames);
  await page.mouse.up();
  await poll(() => particles(page, 'inputKinds')).toEqual(['grab', 'grabMove', 'release']);
}

describe('particle mode: authoring controls', () => {
  it('opening the humanoid right after a grab on the particle ragdoll raises no page error', async () => {
    const page = app.page;
    await openExample(page, 'Ragdoll', 'ragdoll', 'assets/examples/ragdoll.json');
    await poll(() => particles(page, 'scene')).toBe('ragdoll.json');
    await poll(() => particles(page, 'active')).toBe(true);
    await page.keyboard.press('Home');
    await poll(() => particles(page, 'drawn').then((d) => d.frame)).toBe(0);
    await poll(() => particles(page, 'recorded')).toBeGreaterThan(40);
    app.pageErrors.length = 0;
    await grabSpine(page, 30);
    await poll(() => particles(page, 'current')).toBe(true);

    // File › Open Creature… straight after, then the example list: both load the humanoid under the rigid
    // solver, with its plots.
    await app.pickFiles(MENU.openCreature, [path.resolve('assets/creatures/humanoid.glb')]);
    await poll(async () => (await hook(page, 'creature'))?.fileName).toBe('humanoid.glb');
    await poll(() => particles(page, 'scene')).toBeNull();
    await poll(() => particles(page, 'solver')).toBe('rigid');
    await openExample(page, 'Ragdoll', 'ragdoll', 'assets/examples/ragdoll.json');
    await poll(() => particles(page, 'active')).toBe(true);
    await page.keyboard.press('Home');
    await poll(() => particles(page, 'recorded')).toBeGreaterThan(40);
    await grabSpine(page, 20);
    await openExample(page, 'humanoid', 'humanoid');
    await poll(() => particles(page, 'scene')).toBeNull();
    await poll(() => particles(page, 'active')).toBe(false);
    // The humanoid example has bodies: its creature plots draw once frames are recorded.
    await page.getByRole('toolbar').getByRole('button', { name: 'Play preview', exact: true }).click();
    await poll(() => page.locator('[data-testid="plots"] .plot canvas').count()).toBeGreaterThan(0);
    await poll(() => particles(page, 'recorded'), 60_000).toBeGreaterThan(60);
    await page.getByRole('toolbar').getByRole('button', { name: 'Pause preview', exact: true }).click();
    // The plots' playhead line follows the timeline: at frame 0 on the left edge, further right 30 frames on.
    const lineX = () => page.locator('[data-testid="plots"] [data-testid="plot-playhead"]').first()
      .evaluate((e) => ((e as HTMLElement).style.display === 'none' ? null : e.getBoundingClientRect().left - e.parentElement!.getBoundingClientRect().left));
    await page.keyboard.press('Home');
    await poll(lineX).toBeCloseTo(0, 0);
    for (let i = 0; i < 30; i++) await page.keyboard.press('.');
    await poll(lineX).toBeGreaterThan(2);
    expect(app.pageErrors).toEqual([]);
  });
});
