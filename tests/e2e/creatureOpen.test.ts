/**
 * Issue 10's editor check, in the production web build: after the Armed Mine has crawled 20 s with camera
 * Follow on (the camera carried metres along with it), the next creature opened through the UI is in view —
 * its mesh covers pixels of the viewport and the floor grid is drawn — without pressing F. Then Generate
 * on it and play 5 s: the preview reports no blow-up.
 * With a third-party corpus creature (assets/third-party/CesiumMan) present, the same for it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, MENU, type App } from './harness/app';
import { countPixels, hook, hookCaller, meshPixels, nextFrames } from './harness/hook';
import type { PreviewTestHook } from '../../renderer/src/preview/testHook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

const preview = hookCaller<PreviewTestHook>('__marionettePreview');
const toolbarButton = (name: string) => app.page.getByRole('toolbar').getByRole('button', { name, exact: true });

/** Wait until `fileName` is the open creature, answering "Don't save" if the editor asks about unsaved
 *  changes (a Generate before made the document dirty). */
async function waitOpened(fileName: string): Promise<void> {
  const page = app.page;
  const discard = page.getByTestId('prompt').getByRole('button', { name: "Don't save", exact: true });
  await expect.poll(async () => {
    if (await discard.isVisible()) await discard.click();
    return (await hook(page, 'creature'))?.fileName;
  }, { timeout: 60_000, interval: 250 }).toBe(fileName);
}

/** Play from frame 0 at `speed`× until the playhead passes `frames`, then pause. */
async function playTo(frames: number, speed: '1' | '2'): Promise<void> {
  const page = app.page;
  await page.getByLabel('Playback speed').selectOption(speed);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur()); // Space must reach the editor
  await page.keyboard.press('Home');
  await expect.poll(() => preview(page, 'playhead'), { timeout: 10_000 }).toBe(0);
  await page.keyboard.press('Space');
  await expect.poll(() => preview(page, 'playhead'), { timeout: 300_000, interval: 500 }).toBeGreaterThanOrEqual(frames);
  await page.keyboard.press('Space');
  expect(await preview(page, 'playing')).toBe(false);
}

/** Crawl the Armed Mine (open at startup, or reopened from File › Examples) 20 s with Follow on. */
async function crawlArmedMine(): Promise<void> {
  const page = app.page;
  if ((await hook(page, 'creature'))?.fileName !== 'armed-mine.glb') {
    await page.getByRole('menubar').getByRole('menuitem', { name: 'File', exact: true }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Examples', exact: true }).hover();
    await page.getByRole('menu').getByRole('menuitem', { name: 'armed-mine', exact: true }).click();
    await waitOpened('armed-mine.glb');
  }
  await expect.poll(async () => (await preview(page, 'current')) && (await preview(page, 'recorded')) > 0, { timeout: 30_000 }).toBe(true);
  if (!(await preview(page, 'follow'))) await page.keyboard.press('c');
  expect(await preview(page, 'follow')).toBe(true);
  const start = (await preview(page, 'recordedBodies', 0))!.body!.p;
  const dt = (await preview(page, 'duration')).dt;
  await playTo(Math.round(20 / dt) - 1, '2');
  const at = (await preview(page, 'shown')).bodies!.body!.p;
  // It crawled away from where the view started, and the camera went along.
  expect(Math.hypot(at[0]! - start[0]!, at[2]! - start[2]!)).toBeGreaterThan(0.5);
  const camera = (await preview(page, 'cameraPose'))!;
  expect(Math.hypot(camera.target[0] - start[0]!, camera.target[2] - start[2]!)).toBeGreaterThan(0.4);
  await page.getByLabel('Playback speed').selectOption('1');
}

/** Open a creature file through File › Open Creature…, wait until it shows. The creature file alone has an
 *  empty rig: nothing to simulate until Generate. */
async function openCreature(file: string): Promise<void> {
  const page = app.page;
  await app.pickFiles(MENU.openCreature, [path.resolve(file)]);
  await waitOpened(path.basename(file));
  await nextFrames(page, 10);
}

/** The creature is in view without F: its mesh covers pixels, and the camera looks at it (its target within
 *  the creature's size of its centre), from a distance that shows it whole and the floor around it. */
async function expectInView(minMeshPixels: number): Promise<void> {
  const page = app.page;
  // Let the orbit damping and any camera motion settle (a few frames), then count.
  await nextFrames(page, 6);
  const pixels = await meshPixels(page);
  expect(pixels).toBeGreaterThan(minMeshPixels);
  const all = await countPixels(page);
  // The floor grid and the creature together: well above the few percent of an empty far-away view.
  expect(all.nonBackground).toBeGreaterThan(all.total * 0.05);
}

/** Generate with the dialog's defaults, then play 5 s: no blow-up reported. */
async function generateAndPlay(): Promise<{ problem: string | null; bodies: number }> {
  const page = app.page;
  await toolbarButton('Generate from skeleton').click();
  await page.getByTestId('generate-dialog').getByRole('button', { name: 'Generate', exact: true }).click();
  await expect.poll(async () => ((await hook(page, 'document')) as { rig: { bodies: unknown[] } }).rig.bodies.length, { timeout: 20_000 }).toBeGreaterThan(0);
  const bodies = ((await hook(page, 'document')) as { rig: { bodies: unknown[] } }).rig.bodies.length;
  await expect.poll(async () => (await preview(page, 'current')) && (await preview(page, 'recorded')) > 0, { timeout: 30_000 }).toBe(true);
  const dt = (await preview(page, 'duration')).dt;
  const frames = Math.round(5 / dt);
  // The worker computes ahead of playback; a blow-up stops it and sets the problem.
  await expect.poll(async () => (await preview(page, 'problem')) !== null || (await preview(page, 'recorded')) > frames, { timeout: 120_000, interval: 500 }).toBe(true);
  if ((await preview(page, 'problem')) === null) await playTo(frames, '2');
  const problem = await preview(page, 'problem');
  const shownText = await page.locator('.tl-problem').count() > 0 ? await page.locator('.tl-problem').textContent() : null;
  return { problem: problem ?? shownText, bodies };
}

describe('every creature open frames the camera on the creature', () => {
  it('after the Armed Mine crawled 20 s with Follow on, the humanoid opens in view (no F); Generate, play 5 s: no blow-up', async () => {
    await crawlArmedMine();
    await openCreature('assets/creatures/humanoid.glb');
    // The humanoid's mesh is thousands of pixels of the 1280 × 800 window's viewport when framed.
    await expectInView(5_000);
    const { problem, bodies } = await generateAndPlay();
    expect(bodies).toBeGreaterThan(5);
    expect(problem ?? '').not.toContain('blew up');
    expect(problem).toBeNull();
  }, 600_000);

  const cesium = 'assets/third-party/CesiumMan/CesiumMan.glb';
  it.skipIf(!existsSync(cesium))('the same for a corpus creature (CesiumMan): in view after the crawl, Generate, 5 s without blow-up', async () => {
    await crawlArmedMine();
    await openCreature(cesium);
    await expectInView(2_000);
    const { problem } = await generateAndPlay();
    expect(problem).toBeNull();
  }, 600_000);
});
