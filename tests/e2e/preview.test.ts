/**
 * The preview end to end (issue 5): the Armed Mine opens with its rig, Play fills the timeline from the
 * worker, scrubbing back to frame 0 and forward again shows exactly the recorded poses, and dragging a
 * gait-path handle re-simulates (the recorded frames after the edit differ) as one undo step; the selected
 * point's translate gizmo moves it along one axis (one undo step; Escape cancels); the View menu toggles
 * the overlays; with camera follow on, the crawling creature stays in the middle of the view.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchApp, type App, type MenuPath } from './harness/app';
import { maxDiff } from './harness/poses';
import { hook, hookCaller } from './harness/hook';
import type { PreviewTestHook } from '../../renderer/src/preview/testHook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

const preview = hookCaller<PreviewTestHook>('__marionettePreview');


type CameraPose = { position: number[]; target: number[] };
const poseDiff = (a: CameraPose, b: CameraPose) => Math.max(...[0, 1, 2].flatMap((i) => [Math.abs(a.position[i]! - b.position[i]!), Math.abs(a.target[i]! - b.target[i]!)]));

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
    // The camera follows the root: let it finish gliding back with the playhead before aiming at a handle.
    await expect.poll(() => preview(page, 'cameraSettled'), { timeout: 10_000 }).toBe(true);
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

  it('the selected point carries a translate gizmo: its X arrow moves only x, as one undo step; Escape cancels', async () => {
    const page = app.page;
    expect(await preview(page, 'selectedPoint')).toEqual({ controller: 'hand-path', index: 2 });
    await expect.poll(async () => (await preview(page, 'current')) && (await preview(page, 'cameraSettled')), { timeout: 30_000 }).toBe(true);
    // The arrow's place on screen, read once the re-simulation of the last edit is in (the shown pose, and with
    // it the handle, no longer moves), the same on two reads a frame apart, and with the pointer over it the
    // gizmo reports the X axis hovered: a press there starts an X drag, not a camera orbit.
    const arrow = async () => {
      let last: { x: { x: number; y: number }; dir: { x: number; y: number } } | null = null;
      await expect.poll(async () => {
        if (!(await preview(page, 'current')) || !(await preview(page, 'cameraSettled'))) return false;
        const centre = await preview(page, 'pathHandleScreen', 'hand-path', 2);
        const x = await preview(page, 'pathGizmoScreen', 'X');
        if (!centre || !x) return false;
        const len = Math.hypot(x.x - centre.x, x.y - centre.y);
        expect(len).toBeGreaterThan(8); // the arrow is seen from the side, not end-on
        const now = { x, dir: { x: (x.x - centre.x) / len, y: (x.y - centre.y) / len } };
        const stable = last !== null && Math.hypot(last.x.x - x.x, last.x.y - x.y) < 0.5;
        last = now;
        if (!stable) return false;
        await page.mouse.move(x.x, x.y);
        return (await preview(page, 'pathGizmoHovered')) === 'X';
      }, { timeout: 30_000, interval: 150 }).toBe(true);
      return last!;
    };
    await expect.poll(() => preview(page, 'pathGizmoScreen', 'X')).not.toBeNull();
    const before = (await preview(page, 'controlPoints'))!;
    const depth = await hook(page, 'undoDepth');
    const a = await arrow();
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(a.x.x + a.dir.x * i * 4, a.x.y + a.dir.y * i * 4);
    await page.mouse.up();
    const after = (await preview(page, 'controlPoints'))!;
    expect(Math.abs(after[2]![0]! - before[2]![0]!)).toBeGreaterThan(2e-3);
    // y and z stay (only the 0.1 mm rounding of the stored numbers may touch them).
    expect(Math.abs(after[2]![1]! - before[2]![1]!)).toBeLessThanOrEqual(1e-4);
    expect(Math.abs(after[2]![2]! - before[2]![2]!)).toBeLessThanOrEqual(1e-4);
    expect(after.filter((_, i) => i !== 2)).toEqual(before.filter((_, i) => i !== 2));
    expect(await hook(page, 'undoDepth')).toBe(depth + 1);

    // Escape mid-drag: the point goes back, nothing to undo, and the rest of the drag does nothing.
    await expect.poll(() => preview(page, 'cameraSettled'), { timeout: 10_000 }).toBe(true);
    const b = await arrow();
    await page.mouse.down();
    for (let i = 1; i <= 6; i++) await page.mouse.move(b.x.x + b.dir.x * i * 4, b.x.y + b.dir.y * i * 4);
    await expect.poll(() => preview(page, 'controlPoints'), { timeout: 10_000 }).not.toEqual(after);
    await page.keyboard.press('Escape');
    await page.mouse.move(b.x.x + b.dir.x * 40, b.x.y + b.dir.y * 40);
    await page.mouse.up();
    expect(await preview(page, 'controlPoints')).toEqual(after);
    expect(await hook(page, 'undoDepth')).toBe(depth + 1);
  });

  it('the gait inspector: a phase offset of 1.5 is refused with the schema\'s rule; a new rate re-simulates, as one undo step', async () => {
    const page = app.page;
    // The selected path point (previous test) opens its controller in the inspector.
    const rate = page.getByLabel('hand-path Rate', { exact: true });
    const phase = page.getByLabel('hand-path Phase offset', { exact: true });
    await expect.poll(() => rate.isVisible(), { timeout: 10_000 }).toBe(true);
    const wasRate = await rate.inputValue(), wasPhase = await phase.inputValue();
    const depth = await hook(page, 'undoDepth');
    await phase.fill('1.5');
    await phase.press('Enter');
    await expect.poll(() => page.getByTestId('toast-error').allTextContents().then((t) => t.join('\n'))).toContain('phaseOffset: must be < 1, got 1.5');
    await expect.poll(() => phase.inputValue()).toBe(wasPhase);
    expect(await hook(page, 'undoDepth')).toBe(depth);

    await expect.poll(async () => (await preview(page, 'current')) && (await preview(page, 'recorded')) > 240, { timeout: 30_000 }).toBe(true);
    const before = await preview(page, 'recordedBodies', 240);
    await rate.fill(String(Number(wasRate) / 2));
    await rate.press('Enter');
    expect(await hook(page, 'undoDepth')).toBe(depth + 1);
    // Re-simulated from frame 0 with the slower gait: 4 s in, the mine is elsewhere.
    await expect.poll(async () => (await preview(page, 'current')) && (await preview(page, 'recorded')) > 240, { timeout: 30_000 }).toBe(true);
    expect(maxDiff(await preview(page, 'recordedBodies', 240), before)).toBeGreaterThan(1e-3);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    await expect.poll(() => rate.inputValue()).toBe(wasRate);
    expect(await hook(page, 'undoDepth')).toBe(depth);
  });

  it('View menu items toggle the overlays and the camera follow', async () => {
    const page = app.page;
    // The in-app View items are checkboxes (they show their state); under Electron the native menu sends.
    const menu = async (entry: MenuPath) => {
      if (app.target === 'electron') return app.menu(entry);
      await page.getByRole('menubar').getByRole('menuitem', { name: 'View', exact: true }).click();
      await page.getByRole('menu').getByRole('menuitemcheckbox', { name: entry.item, exact: true }).click();
    };
    const pressed = (name: string) => page.getByRole('toolbar').getByRole('button', { name }).getAttribute('aria-pressed');
    const bodies: MenuPath = { menu: 'View', item: 'Show Bodies', command: { kind: 'toggle-overlay', overlay: 'bodies' } };
    const follow: MenuPath = { menu: 'View', item: 'Follow Creature', command: 'toggle-follow' };
    const was = await pressed('Show bodies');
    // One Bodies switch: the toolbar has no second, rig-only bodies toggle.
    expect(await page.getByRole('toolbar').getByRole('button', { name: /bodies/i }).count()).toBe(1);
    await menu(bodies);
    await expect.poll(() => pressed('Show bodies')).toBe(was === 'true' ? 'false' : 'true');
    await menu(bodies);
    await expect.poll(() => pressed('Show bodies')).toBe(was);
    // One Joints switch too: View › Show Joints and Limits flips the toolbar's Joints button and whether
    // the rig layer draws the joints' axes and limits.
    const joints: MenuPath = { menu: 'View', item: 'Show Joints and Limits', command: { kind: 'toggle-overlay', overlay: 'joints' } };
    const jointsShown = () => page.evaluate(() => (window as unknown as { __marionetteAuthoring: { jointsShown(): boolean | null } }).__marionetteAuthoring.jointsShown());
    expect(await page.getByRole('toolbar').getByRole('button', { name: /limits|joints/i }).count()).toBe(1);
    const jointsWere = await pressed('Show joints and limits');
    await expect.poll(jointsShown).toBe(jointsWere === 'true');
    await menu(joints);
    await expect.poll(() => pressed('Show joints and limits')).toBe(jointsWere === 'true' ? 'false' : 'true');
    await expect.poll(jointsShown).toBe(jointsWere !== 'true');
    await menu(joints);
    await expect.poll(jointsShown).toBe(jointsWere === 'true');
    expect(await preview(page, 'follow')).toBe(true);
    await menu(follow);
    await expect.poll(() => preview(page, 'follow')).toBe(false);
    await page.keyboard.press('c');
    await expect.poll(() => preview(page, 'follow')).toBe(true);
  });

  it('with follow on, the root body is still in the central 60 % of the view after 10 s of crawling; off, the camera stays', async () => {
    const page = app.page;
    const pose = () => preview(page, 'cameraPose');
    // The tests above left their path-handle drags as edits: undo them all, so the crawl measured here is
    // the shipped gait's and not whatever path those drags made.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (let i = 0; i < 20 && (await hook(page, 'undoDepth')) > 0; i++) await page.keyboard.press('Control+z');
    expect(await hook(page, 'undoDepth')).toBe(0);
    await page.keyboard.press('Home');
    await waitShown(page, 0);
    await expect.poll(async () => (await preview(page, 'current')) && (await preview(page, 'recorded')) > 600, { timeout: 30_000 }).toBe(true);

    // Off: playing moves the creature, not the camera.
    await page.keyboard.press('c');
    await expect.poll(() => preview(page, 'follow')).toBe(false);
    // The orbit camera's damping (and the follow spring it was on) may still be easing out: let the view
    // come to rest first, so what is measured below is only whether playing moves the camera.
    let last = (await pose())!;
    await expect.poll(async () => {
      const now = (await pose())!;
      const d = poseDiff(now, last);
      last = now;
      return d;
    }, { timeout: 30_000, interval: 300 }).toBeLessThan(1e-9);
    const still = (await pose())!;
    await page.keyboard.press('Space');
    await expect.poll(() => preview(page, 'playhead'), { timeout: 20_000 }).toBeGreaterThan(60);
    await page.keyboard.press('Space');
    expect(poseDiff((await pose())!, still)).toBeLessThan(1e-6);

    // On, from frame 0, at 2× so 10 s of crawl do not take minutes of software rendering.
    await page.keyboard.press('c');
    await page.keyboard.press('Home');
    await page.getByLabel('Playback speed').selectOption('2');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur()); // Space must reach the editor
    const start = (await preview(page, 'recordedBodies', 0))!;
    await page.keyboard.press('Space');
    await expect.poll(() => preview(page, 'playhead'), { timeout: 120_000, interval: 250 }).toBeGreaterThanOrEqual(600);
    await page.keyboard.press('Space');
    const shown = await preview(page, 'shown');
    const root = 'body'; // the hand-path controller's root
    const moved = Math.hypot(shown.bodies![root]!.p[0]! - start[root]!.p[0]!, shown.bodies![root]!.p[2]! - start[root]!.p[2]!);
    expect(moved).toBeGreaterThan(0.3); // it did crawl away from where the view started
    const at = (await preview(page, 'rootInViewport'))!;
    expect(at.u).toBeGreaterThan(0.2); expect(at.u).toBeLessThan(0.8);
    expect(at.v).toBeGreaterThan(0.2); expect(at.v).toBeLessThan(0.8);
    // Switching follow on glided the aim onto the root; since then the target has been carried with it
    // (lagging a crawl of u m/s by 2u/ω, a few cm).
    const now = (await pose())!;
    const p = shown.bodies![root]!.p;
    expect(Math.hypot(now.target[0] - p[0]!, now.target[2] - p[2]!)).toBeLessThan(0.1);
    expect(Math.hypot(now.target[0] - still.target[0], now.target[2] - still.target[2])).toBeGreaterThan(0.2);
    await page.getByLabel('Playback speed').selectOption('1');
  });
});
