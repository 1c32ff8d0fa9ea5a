/**
 * One drag gesture for every gizmo and handle (issue 14 item 4, renderer/src/viewport/useDragGesture.ts), on
 * the Armed Mine at rest: a drag of the shape gizmo and of the joint gizmo is one undo step, and Escape in
 * the middle of a drag puts the document back exactly as it was, leaves no undo step, ends the drag (the
 * orbit camera on again) and the rest of the pointer motion does nothing (document and camera); the release
 * of a drag is not a pick (the selection stays, though the pointer ends over a bone).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, type App } from './harness/app';
import { eventually, hook, hookCaller, nextFrames } from './harness/hook';
import type { AuthoringTestHook } from '../../renderer/src/authoring/testHook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

const authoring = hookCaller<AuthoringTestHook>('__marionetteAuthoring');
type Rig = { bodies: { name: string; shapes: { position: number[] }[] }[]; joints: { name: string; frameA: { position: number[] } }[] };
const rig = async () => ((await hook(app.page, 'document')) as { rig: Rig }).rig;
const playing = () => app.page.evaluate(() => (window as unknown as { __marionettePreview: { playing(): boolean } }).__marionettePreview.playing());
/** The rest pose on screen (the gizmos are for the rest pose, not a previewed frame): paused at frame 0. */
async function atRest(): Promise<void> {
  if (await playing()) await app.page.keyboard.press('Space');
  await eventually(playing).toBe(false);
  await authoring(app.page, 'seek', 0);
}
const bodyRow = (name: string) => app.page.locator(`[data-testid="outliner-bodies"] [data-body="${name}"]`);
const jointRow = (name: string) => app.page.locator(`[data-testid="outliner-joints"] [data-joint="${name}"]`);

/** An arrow of a gizmo on screen (X, Y or Z: one not seen end-on), stable over two reads and hovered (a
 *  press there drags along it, not the camera); an axis that will not hover after a few tries is skipped. */
async function arrow(which: 'shape' | 'joint'): Promise<{ at: { x: number; y: number }; dir: { x: number; y: number } }> {
  const axes = ['X', 'Y', 'Z'];
  let k = 0, misses = 0;
  let last: { at: { x: number; y: number }; dir: { x: number; y: number } } | null = null;
  await expect.poll(async () => {
    const axis = axes[k % 3]!;
    const next = () => { k++; misses = 0; last = null; return false; };
    const centre = await authoring(app.page, 'gizmoCentre', which);
    const at = await authoring(app.page, 'gizmoScreen', which, axis);
    if (!centre || !at) return false;
    const len = Math.hypot(at.x - centre.x, at.y - centre.y);
    if (len < 12) return next(); // seen end-on
    const now = { at, dir: { x: (at.x - centre.x) / len, y: (at.y - centre.y) / len } };
    const stable = last !== null && Math.hypot(last.at.x - at.x, last.at.y - at.y) < 0.5;
    last = now;
    if (!stable) return false;
    // Onto the arrow, then a pixel along it: the gizmo judges hover on pointer moves over the canvas.
    await app.page.mouse.move(at.x - now.dir.x, at.y - now.dir.y);
    await app.page.waitForTimeout(100);
    await app.page.mouse.move(at.x, at.y);
    if ((await authoring(app.page, 'gizmoHovered', which)) === axis) return true;
    return ++misses >= 4 ? next() : false;
  }, { timeout: 45_000, interval: 150 }).toBe(true);
  return last!;
}

async function dragThenMaybeEscape(which: 'shape' | 'joint', read: () => Promise<number[]>) {
  const page = app.page;
  const before = await read();
  const depth = await hook(page, 'undoDepth');
  const selection = await hook(page, 'selection');
  // A whole drag: one undo step, the value moved.
  const a = await arrow(which);
  await page.mouse.down();
  expect(await authoring(page, 'dragging')).toBe(true);
  for (let i = 1; i <= 8; i++) await page.mouse.move(a.at.x + a.dir.x * i * 4, a.at.y + a.dir.y * i * 4);
  await page.mouse.up();
  const after = await read();
  expect(Math.hypot(after[0]! - before[0]!, after[1]! - before[1]!, after[2]! - before[2]!)).toBeGreaterThan(2e-3);
  expect(await hook(page, 'undoDepth')).toBe(depth + 1);
  expect(await authoring(page, 'dragging')).toBe(false);

  // The release is not a pick: the selection (and with it the gizmo) stays, whatever is under the pointer.
  await nextFrames(page);
  expect(await hook(page, 'selection')).toEqual(selection);

  // Escape mid-drag: back to `after` exactly, no new undo step, the drag over.
  const b = await arrow(which);
  await page.mouse.down();
  for (let i = 1; i <= 6; i++) await page.mouse.move(b.at.x + b.dir.x * i * 4, b.at.y + b.dir.y * i * 4);
  await eventually(read).not.toEqual(after);
  const view = (await hook(page, 'boneScreenPosition', 'body'))!;
  await page.keyboard.press('Escape');
  expect(await authoring(page, 'dragging')).toBe(false);
  await page.mouse.move(b.at.x + b.dir.x * 40, b.at.y + b.dir.y * 40);
  await page.mouse.up();
  await nextFrames(page);
  expect(await read()).toEqual(after);
  expect(await hook(page, 'selection')).toEqual(selection);
  expect(await hook(page, 'undoDepth')).toBe(depth + 1);
  // …nor turned the camera: the body's bone is where it was on screen.
  const still = (await hook(page, 'boneScreenPosition', 'body'))!;
  expect(Math.hypot(still.x - view.x, still.y - view.y)).toBeLessThan(0.5);
  // Escape ended the drag, not the selection: the gizmo is still there.
  await eventually(() => authoring(page, 'gizmoScreen', which, 'X')).not.toBeNull();
  // Undo takes the one drag back.
  await page.keyboard.press('Control+z');
  await eventually(read).toEqual(before);
}

describe('one drag gesture for the gizmos', () => {
  it('the joint gizmo: a drag of the anchor is one undo step; Escape mid-drag restores both frames with no undo step', async () => {
    await eventually(async () => (await hook(app.page, 'creature'))?.fileName).toBe('armed-mine.glb');
    await jointRow('elbow').click();
    await eventually(() => hook(app.page, 'selection')).toEqual({ kind: 'joint', name: 'elbow' });
    await atRest();
    await eventually(() => authoring(app.page, 'gizmoCentre', 'joint')).not.toBeNull();
    await dragThenMaybeEscape('joint', async () => (await rig()).joints.find((j) => j.name === 'elbow')!.frameA.position);
  });

  it('the shape gizmo: a drag is one undo step; Escape mid-drag restores the shape with no undo step', async () => {
    await bodyRow('forearm').click();
    await eventually(() => hook(app.page, 'selection')).toEqual({ kind: 'body', name: 'forearm' });
    await atRest();
    await eventually(() => authoring(app.page, 'gizmoCentre', 'shape')).not.toBeNull();
    await dragThenMaybeEscape('shape', async () => (await rig()).bodies.find((b) => b.name === 'forearm')!.shapes[0]!.position);
  });
});
