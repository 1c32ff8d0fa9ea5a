/**
 * The tuning loop where a first-time user stumbled (issue 15 item 4), on the Armed Mine:
 *  - a 40-pixel direct drag on a gait path's handle moves the point less than 0.5 m and keeps it in the
 *    path's plane (x of the creature's frame unchanged), as one undo step;
 *  - a grab while paused runs the simulation while the mouse is down (the grabbed body moves toward the
 *    cursor), pauses again on release, and the whole drag is one input on the timeline;
 *  - Live simulate runs the physics at real time with the mouse grab active (the grabbed body moves toward
 *    the cursor), and stopping it returns to the recording.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchApp, type App } from './harness/app';
import { hook, hookCaller } from './harness/hook';
import type { PreviewTestHook } from '../../renderer/src/preview/testHook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

const preview = hookCaller<PreviewTestHook>('__marionettePreview');
const poll = <T>(fn: () => Promise<T>, timeout = 30_000) => expect.poll(fn, { timeout, interval: 100 });

async function pausedAt0(page: Page): Promise<void> {
  if (await preview(page, 'playing')) await page.keyboard.press('Space');
  await poll(() => preview(page, 'playing')).toBe(false);
  await page.keyboard.press('Home');
  await poll(() => preview(page, 'shown').then((s) => s.index)).toBe(0);
  await poll(() => preview(page, 'cameraSettled')).toBe(true);
}

describe('the tuning loop', () => {
  it('a 40-pixel direct drag on a path handle moves the point < 0.5 m, in the path plane, as one undo step', async () => {
    const page = app.page;
    await poll(() => preview(page, 'recorded')).toBeGreaterThan(0);
    await pausedAt0(page);
    for (const index of [1, 4]) {
      const before = (await preview(page, 'controlPoints'))!;
      const depth = await hook(page, 'undoDepth');
      // Read the handle's place until it is still (the camera may still ease after a previous drag).
      let at = (await preview(page, 'pathHandleScreen', 'hand-path', index))!;
      await poll(async () => {
        const now = (await preview(page, 'pathHandleScreen', 'hand-path', index))!;
        const still = Math.hypot(now.x - at.x, now.y - at.y) < 0.5;
        at = now;
        return still;
      }).toBe(true);
      await page.mouse.move(at.x, at.y);
      await page.mouse.down();
      for (let i = 1; i <= 8; i++) await page.mouse.move(at.x + i * 5, at.y);
      await page.mouse.up();
      await poll(() => preview(page, 'controlPoints')).not.toEqual(before);
      const after = (await preview(page, 'controlPoints'))!;
      const p0 = before[index]!, p1 = after[index]!;
      const moved = Math.hypot(p1[0]! - p0[0]!, p1[1]! - p0[1]!, p1[2]! - p0[2]!);
      expect(moved).toBeGreaterThan(0.01);
      expect(moved).toBeLessThan(0.5);
      // In the path's plane: the point's x in the creature's frame is exactly what it was.
      expect(p1[0]).toBe(p0[0]);
      expect(after.filter((_, i) => i !== index)).toEqual(before.filter((_, i) => i !== index));
      expect(await hook(page, 'undoDepth')).toBe(depth + 1);
      console.log(`direct drag of point ${index}: 40 px moved it ${moved.toFixed(3)} m, x ${p0[0]} -> ${p1[0]}`);
    }
  });
});
