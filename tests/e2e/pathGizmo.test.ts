/**
 * The path gizmo's arrows never sit under a neighbouring path handle (issue 15 item 4: a drag "aiming for
 * the gizmo arrow next to it" took the neighbour and threw it 4.3 m): on the Armed Mine's hand path, point 1's
 * handle is dragged under point 2's Z arrow and point 2 selected; a press there is the gizmo's — point 2
 * moves along Z only, the neighbour stays, point 2 stays selected, one undo step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, type App } from './harness/app';
import { hook, hookCaller } from './harness/hook';
import type { PreviewTestHook } from '../../renderer/src/preview/testHook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

const preview = hookCaller<PreviewTestHook>('__marionettePreview');
const poll = <T>(fn: () => Promise<T>, timeout = 30_000) => expect.poll(fn, { timeout, interval: 100 });

describe('path gizmo over neighbouring handles', () => {
  it('a press on an arrow over a neighbouring handle drags the selected point along the arrow, not the neighbour', async () => {
    const page = app.page;
    await poll(() => preview(page, 'recorded')).toBeGreaterThan(0);
    if (await preview(page, 'follow')) await page.keyboard.press('c');
    await page.keyboard.press('Home');
    await poll(() => preview(page, 'shown').then((s) => s.index)).toBe(0);
    // Select point 2 (a click on its handle).
    const h2 = (await preview(page, 'pathHandleScreen', 'hand-path', 2))!;
    await page.mouse.click(h2.x, h2.y);
    await poll(() => preview(page, 'selectedPoint')).toEqual({ controller: 'hand-path', index: 2 });
    await poll(() => preview(page, 'pathGizmoScreen', 'Z')).not.toBeNull();

    // Put the neighbour (point 1) under point 2's Z arrow: drag its handle there (in the path's plane,
    // which holds that arrow), then select point 2 again.
    const zc = (await preview(page, 'pathGizmoScreen', 'Z'))!;
    const h1 = (await preview(page, 'pathHandleScreen', 'hand-path', 1))!;
    await page.mouse.move(h1.x, h1.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(h1.x + ((zc.x - h1.x) * i) / 10, h1.y + ((zc.y - h1.y) * i) / 10);
    await page.mouse.up();
    await poll(() => preview(page, 'selectedPoint')).toEqual({ controller: 'hand-path', index: 1 });
    const again = (await preview(page, 'pathHandleScreen', 'hand-path', 2))!;
    await page.mouse.click(again.x, again.y);
    await poll(() => preview(page, 'selectedPoint')).toEqual({ controller: 'hand-path', index: 2 });
    await poll(() => preview(page, 'pathGizmoScreen', 'Z')).not.toBeNull();
    // The neighbour's handle now lies in the Z arrow's pick zone: hovering it, the gizmo says Z.
    const under = (await preview(page, 'pathHandleScreen', 'hand-path', 1))!;
    await poll(async () => {
      await page.mouse.move(under.x + 1, under.y);
      await page.mouse.move(under.x, under.y);
      return preview(page, 'pathGizmoHovered');
    }, 10_000).toBe('Z');
    const found = { index: 1, axis: 'Z', at: under };
    const f = found!;
    const before = (await preview(page, 'controlPoints'))!;
    const depth = await hook(page, 'undoDepth');
    const centre = (await preview(page, 'pathHandleScreen', 'hand-path', 2))!;
    const tip = (await preview(page, 'pathGizmoScreen', f.axis as 'X' | 'Y' | 'Z'))!;
    const len = Math.hypot(tip.x - centre.x, tip.y - centre.y);
    const dir = { x: (tip.x - centre.x) / len, y: (tip.y - centre.y) / len };
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(f.at.x + dir.x * i * 5, f.at.y + dir.y * i * 5);
    await page.mouse.up();
    const after = (await preview(page, 'controlPoints'))!;
    const k = { X: 0, Y: 1, Z: 2 }[f.axis as 'X' | 'Y' | 'Z'];
    console.log(`neighbour ${f.index} under the ${f.axis} arrow: point 2 moved ${(after[2]![k]! - before[2]![k]!).toFixed(4)} m along it; neighbour ${JSON.stringify(before[f.index])} -> ${JSON.stringify(after[f.index])}`);
    expect(after[f.index]).toEqual(before[f.index]);
    expect(Math.abs(after[2]![k]! - before[2]![k]!)).toBeGreaterThan(2e-3);
    for (let j = 0; j < 3; j++) if (j !== k) expect(Math.abs(after[2]![j]! - before[2]![j]!)).toBeLessThanOrEqual(1e-4);
    expect(after.filter((_, i) => i !== 2)).toEqual(before.filter((_, i) => i !== 2));
    expect(await preview(page, 'selectedPoint')).toEqual({ controller: 'hand-path', index: 2 });
    expect(await hook(page, 'undoDepth')).toBe(depth + 1);
  });
});
