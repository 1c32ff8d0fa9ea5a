/**
 * The preview end to end (issue 5): the Armed Mine opens with its rig, Play fills the timeline from the
 * worker, scrubbing back to frame 0 and forward again shows exactly the recorded poses, and dragging a
 * gait-path handle re-simulates (the recorded frames after the edit differ) as one undo step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchApp, type App } from './harness/app';
import { hook } from './harness/hook';
import type { PreviewTestHook } from '../../renderer/src/preview/testHook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

type Fn = { [K in keyof PreviewTestHook]: PreviewTestHook[K] extends (...a: never[]) => unknown ? K : never }[keyof PreviewTestHook];
function preview<K extends Fn>(page: Page, name: K, ...args: Parameters<PreviewTestHook[K]>): Promise<Awaited<ReturnType<PreviewTestHook[K]>>> {
  return page.evaluate(([n, a]) => {
    const h = (window as unknown as { __marionettePreview: Record<string, (...x: unknown[]) => unknown> }).__marionettePreview;
    return h[n as string]!(...(a as unknown[]));
  }, [name, args] as const) as Promise<Awaited<ReturnType<PreviewTestHook[K]>>>;
}

type Poses = Record<string, { p: number[]; q: number[] }>;
/** Largest difference between two sets of body poses (m for p, unitless for q). */
function maxDiff(a: Poses | null, b: Poses | null): number {
  if (!a || !b) return Infinity;
  let d = 0;
  for (const [name, pa] of Object.entries(a)) {
    const pb = b[name];
    if (!pb) return Infinity;
    for (let i = 0; i < 3; i++) d = Math.max(d, Math.abs(pa.p[i]! - pb.p[i]!));
    for (let i = 0; i < 4; i++) d = Math.max(d, Math.abs(pa.q[i]! - pb.q[i]!));
  }
  return d;
}

const waitShown = (page: Page, frame: number) =>
  expect.poll(() => preview(page, 'shown').then((s) => s.index), { timeout: 10_000 }).toBe(frame);

describe('preview', () => {
  it('opens the Armed Mine with its rig and plays: the timeline fills from the worker', async () => {
    const page = app.page;
    await expect.poll(() => preview(page, 'recorded'), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await preview(page, 'problem')).toBeNull();
    expect(await preview(page, 'playhead')).toBe(0);
    await page.getByRole('toolbar').getByRole('button', { name: 'Play preview' }).click();
    // 20 s of timeline = 1200 frames at 60 Hz, computed far ahead of playback.
    await expect.poll(() => preview(page, 'recorded'), { timeout: 30_000 }).toBeGreaterThanOrEqual(1201);
    await expect.poll(() => preview(page, 'playhead'), { timeout: 20_000 }).toBeGreaterThan(20);
    await page.keyboard.press('Space');
    expect(await preview(page, 'playing')).toBe(false);
    const shown = await preview(page, 'shown');
    expect(maxDiff(shown.bodies, await preview(page, 'recordedBodies', shown.index))).toBeLessThanOrEqual(1e-9);
    // The mine moved: the body is not where frame 0 had it.
    expect(maxDiff(shown.bodies, await preview(page, 'recordedBodies', 0))).toBeGreaterThan(1e-3);
  });

  it('scrubbing back to frame 0 and forward again shows exactly the recorded poses', async () => {
    const page = app.page;
    const before = { 0: await preview(page, 'recordedBodies', 0), 6: await preview(page, 'recordedBodies', 6), 600: await preview(page, 'recordedBodies', 600) };
    const canvas = page.getByTestId('timeline-canvas');
    const box = (await canvas.boundingBox())!;
    // Frame 0 is at the left padding (10 px); clicking left of it clamps to 0.
    await page.mouse.click(box.x + 2, box.y + box.height - 8);
    await waitShown(page, 0);
    expect(maxDiff((await preview(page, 'shown')).bodies, before[0])).toBeLessThanOrEqual(1e-9);
    for (let i = 0; i < 6; i++) await page.keyboard.press('.');
    await waitShown(page, 6);
    expect(maxDiff((await preview(page, 'shown')).bodies, before[6])).toBeLessThanOrEqual(1e-9);
    // Halfway along the 20 s timeline is frame 600.
    await page.mouse.click(box.x + 10 + (box.width - 20) / 2, box.y + box.height - 8);
    await waitShown(page, 600);
    expect(maxDiff((await preview(page, 'shown')).bodies, before[600])).toBeLessThanOrEqual(1e-9);
  });

  it('dragging a path handle changes the recorded frames after the edit, as one undo step', async () => {
    const page = app.page;
    await page.keyboard.press('Home');
    await waitShown(page, 0);
    const before = await preview(page, 'recordedBodies', 240);
    const points = await preview(page, 'controlPoints');
    const depth = await hook(page, 'undoDepth');
    const at = await preview(page, 'pathHandleScreen', 'hand-path', 2);
    expect(at).not.toBeNull();
    await page.mouse.move(at!.x, at!.y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(at!.x + i * 5, at!.y + i * 3);
    await page.mouse.up();
    await expect.poll(() => preview(page, 'controlPoints')).not.toEqual(points);
    expect(await hook(page, 'undoDepth')).toBe(depth + 1);
    // The worker re-simulates the edited rig from frame 0.
    await expect.poll(async () => (await preview(page, 'current')) && (await preview(page, 'recorded')) > 240, { timeout: 30_000 }).toBe(true);
    expect(maxDiff(await preview(page, 'recordedBodies', 240), before)).toBeGreaterThan(1e-4);
  });
});
