/**
 * Two simulation workers (issue 17 item 2: renderer/src/preview/workerPool.ts, shared/preview/pool.ts): with
 * two workers chosen, the Armed Mine's timeline fills, a quick path-handle drag (a move every 16 ms, each
 * an edit) is computed on both workers at once, and the recording the editor ends up with is bit for bit a
 * single engine's run of the dragged rig, computed in the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, type App } from './harness/app';
import { hookCaller } from './harness/hook';
import type { PreviewTestHook } from '../../renderer/src/preview/testHook';
import type { PoolTestHook } from '../../renderer/src/preview/poolTestHook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

const preview = hookCaller<PreviewTestHook>('__marionettePreview');
const pool = hookCaller<PoolTestHook>('__marionettePool');
const FULL = 1201;

describe('preview on two workers', () => {
  it('fills the timeline, overlaps the edits of a quick drag and ends on a single run\'s bits', async () => {
    const page = app.page;
    await page.evaluate(() => localStorage.setItem('marionette.previewWorkers', '2'));
    await app.reload();
    expect(await pool(page, 'workers')).toBe(2);
    await expect.poll(() => preview(page, 'recorded'), { timeout: 60_000 }).toBeGreaterThanOrEqual(FULL);
    expect(await preview(page, 'problem')).toBeNull();
    const first = await pool(page, 'compareWithSingleRun');
    expect(first.count).toBeGreaterThanOrEqual(FULL);
    expect(first.recorded).toBe(first.single);

    // The playhead to frame 300 (frame 0 at the timeline's left padding of 10 px), then the drag.
    const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
    await page.mouse.click(box.x + 10 + ((box.width - 20) * 300) / (FULL - 1), box.y + box.height - 8);
    await expect.poll(() => preview(page, 'playhead')).toBeGreaterThan(250);
    await expect.poll(() => preview(page, 'cameraSettled'), { timeout: 10_000 }).toBe(true);
    const points = await preview(page, 'controlPoints');
    // Read the handle's place until it is still (the creature at the new playhead may still be drawn in).
    let at = await preview(page, 'pathHandleScreen', 'hand-path', 2);
    await expect.poll(async () => {
      const now = await preview(page, 'pathHandleScreen', 'hand-path', 2);
      const still = !!now && !!at && Math.hypot(now.x - at.x, now.y - at.y) < 0.5;
      at = now;
      return still;
    }, { timeout: 30_000, interval: 200 }).toBe(true);
    expect(at).not.toBeNull();
    await page.mouse.move(at!.x, at!.y);
    await page.mouse.down();
    for (let i = 1; i <= 16; i++) {
      await page.mouse.move(at!.x + i * 2, at!.y + i);
      await page.waitForTimeout(16);
    }
    await page.mouse.up();
    await expect.poll(() => preview(page, 'controlPoints')).not.toEqual(points);
    await expect.poll(async () => (await preview(page, 'current')) && (await preview(page, 'recorded')) >= FULL, { timeout: 60_000 }).toBe(true);
    // An edit went to the second worker while the first was computing another.
    const stats = (await pool(page, 'stats'))!;
    expect(stats.overlapped).toBeGreaterThan(0);
    expect(stats.shown).toBeGreaterThan(1);
    const after = await pool(page, 'compareWithSingleRun');
    expect(after.count).toBeGreaterThanOrEqual(FULL);
    expect(after.recorded).toBe(after.single);
    expect(after.recorded).not.toBe(first.recorded);
    await page.evaluate(() => localStorage.removeItem('marionette.previewWorkers'));
  }, 240_000);
});
