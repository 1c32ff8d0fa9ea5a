/**
 * Issue 15 item 1 in the production build: the gait diagram. The Armed Mine (one limb) has no diagram; the
 * Hexapod (File › Examples › hexapod, its shipped six-leg rig) shows one lane per limb on the timeline, each
 * lane drawn with both stance (its foot on the floor, from the recorded contacts) and swing, and the panel
 * grows to fit them. Selecting a leg's path handle shows the inspector's Pattern row with the six-leg presets;
 * Wave sets the wave gait's phase offsets (one undo step) and the lanes are drawn again from the new recording.
 * With MARIONETTE_SCREENSHOTS=DIR set, the editor with the Hexapod mid-crawl is saved as DIR/gait-diagram.png.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, type App } from './harness/app';
import { hook, hookCaller } from './harness/hook';
import type { PreviewTestHook } from '../../renderer/src/preview/testHook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

const preview = hookCaller<PreviewTestHook>('__marionettePreview');
const LANES = ['leg_l1', 'leg_r1', 'leg_l2', 'leg_r2', 'leg_l3', 'leg_r3'];
/** drawTimeline.ts TRACK: the first lane's top (ruler 18 + 4, fill 6 + 4, phase 14 + 4) and lane pitch (9 + 2). */
const LANE_TOP = 50, LANE_PITCH = 11, LANE_HEIGHT = 9;

describe('gait diagram', () => {
  it('shows one lane per limb of the Hexapod, with stance and swing drawn from the recorded contacts', async () => {
    const page = app.page;
    const canvas = page.getByTestId('timeline-canvas');
    // The Armed Mine (open at start-up) has one limb: no diagram.
    await expect.poll(async () => (await preview(page, 'current')) && (await preview(page, 'recorded')) > 0, { timeout: 30_000 }).toBe(true);
    await expect.poll(() => canvas.getAttribute('data-gait-lanes'), { timeout: 10_000 }).toBe('');
    const mineHeight = (await page.getByTestId('timeline').boundingBox())!.height;

    await page.getByRole('menubar').getByRole('menuitem', { name: 'File', exact: true }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Examples', exact: true }).hover();
    await page.getByRole('menu').getByRole('menuitem', { name: 'hexapod', exact: true }).click();
    const discard = page.getByTestId('prompt').getByRole('button', { name: "Don't save", exact: true });
    await expect.poll(async () => {
      if (await discard.isVisible()) await discard.click();
      return (await hook(page, 'creature'))?.fileName;
    }, { timeout: 60_000, interval: 250 }).toBe('hexapod.glb');
    await expect.poll(async () => (await preview(page, 'current')) && (await preview(page, 'recorded')) > 600, { timeout: 120_000, interval: 250 }).toBe(true);

    await expect.poll(() => canvas.getAttribute('data-gait-lanes'), { timeout: 10_000 }).toBe(LANES.join(','));
    const duty = (await canvas.getAttribute('data-gait-duty'))!.split(',').map(Number);
    expect(duty).toHaveLength(6);
    for (const d of duty) { expect(d).toBeGreaterThan(0.2); expect(d).toBeLessThan(0.98); }
    const hexHeight = (await page.getByTestId('timeline').boundingBox())!.height;
    expect(hexHeight - mineHeight).toBeGreaterThanOrEqual(6 * LANE_PITCH);

    // Each lane's middle row over the recorded part: stance columns are bright (the lane's hue), swing
    // columns the dark lane background — both appear in every lane.
    const rows = await page.evaluate(([top, pitch, h]) => {
      const c = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
      const dpr = c.width / c.clientWidth, ctx = c.getContext('2d')!;
      const x0 = Math.round(60 * dpr), x1 = Math.round((c.clientWidth - 12) * dpr);
      const out: { bright: number; dark: number }[] = [];
      for (let k = 0; k < 6; k++) {
        const y = Math.round((top + k * pitch + h / 2) * dpr);
        const d = ctx.getImageData(x0, y, x1 - x0, 1).data;
        let bright = 0, dark = 0;
        for (let i = 0; i < d.length; i += 4) { const m = Math.max(d[i]!, d[i + 1]!, d[i + 2]!); if (m > 110) bright++; else if (m < 60) dark++; }
        out.push({ bright, dark });
      }
      return out;
    }, [LANE_TOP, LANE_PITCH, LANE_HEIGHT] as const);
    for (const r of rows) { expect(r.bright).toBeGreaterThan(20); expect(r.dark).toBeGreaterThan(5); }

    // The inspector's Pattern: select leg_l1's first path handle, apply Wave.
    const handle = await preview(page, 'pathHandleScreen', 'leg_l1', 0);
    expect(handle).not.toBeNull();
    await page.mouse.click(handle!.x, handle!.y);
    await expect.poll(() => preview(page, 'selectedPoint'), { timeout: 10_000 }).toEqual({ controller: 'leg_l1', index: 0 });
    const pattern = page.getByTestId('gait-presets');
    await expect.poll(() => pattern.getByRole('button').allTextContents(), { timeout: 10_000 }).toEqual(['Tripod', 'Wave']);
    const undo = await hook(page, 'undoDepth');
    await pattern.getByRole('button', { name: 'Wave', exact: true }).click();
    await expect.poll(() => hook(page, 'undoDepth'), { timeout: 10_000 }).toBe(undo + 1);
    const rig = (await hook(page, 'document')) as { rig: { controllers: { name: string; phaseOffset: number }[] } };
    const sixth = (k: number) => Math.round((k / 6) * 1e9) / 1e9;
    expect(Object.fromEntries(rig.rig.controllers.map((c) => [c.name, c.phaseOffset]))).toEqual({ leg_l3: 0, leg_l2: sixth(1), leg_l1: sixth(2), leg_r3: sixth(3), leg_r2: sixth(4), leg_r1: sixth(5) });
    await expect.poll(async () => (await preview(page, 'current')) && (await preview(page, 'recorded')) > 600, { timeout: 120_000, interval: 250 }).toBe(true);
    await expect.poll(() => canvas.getAttribute('data-gait-lanes'), { timeout: 10_000 }).toBe(LANES.join(','));
    // Back to the tripod for the picture.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    await expect.poll(() => hook(page, 'undoDepth'), { timeout: 10_000 }).toBe(undo);
    await expect.poll(async () => (await preview(page, 'current')) && (await preview(page, 'recorded')) > 480, { timeout: 120_000, interval: 250 }).toBe(true);

    if (process.env.MARIONETTE_SCREENSHOTS) {
      await page.getByLabel('Playback speed').selectOption('2');
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('Home');
      await page.keyboard.press('Space');
      await expect.poll(() => preview(page, 'playhead'), { timeout: 120_000, interval: 250 }).toBeGreaterThanOrEqual(420);
      await page.keyboard.press('Space');
      await page.screenshot({ path: path.join(process.env.MARIONETTE_SCREENSHOTS, 'gait-diagram.png') });
    }
  });
});
