/**
 * The editor as a user first meets it: the Armed Mine open with its rig in a rendered viewport (the skinned
 * creature itself, the bodies overlay off), its bones, bodies and joints in the outliner, selection shared
 * between outliner and viewport with the Physics Asset Editor's click priority (skeleton gizmo > drawn body
 * > the mesh's dominant bone), undo/redo from the keyboard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, type App } from './harness/app';
import { countPixels, eventually, hook, meshPixels, nextFrames } from './harness/hook';

let app: App;
beforeAll(async () => { app = await launchApp(); });
afterAll(async () => { await app?.close(); });

const boneRows = () => app.page.locator('[data-testid="outliner"] [role="treeitem"][data-bone]');
const boneRow = (name: string) => app.page.locator(`[data-testid="outliner"] [role="treeitem"][data-bone="${name}"]`);
const selectedRow = () => app.page.locator('[data-testid="outliner"] [role="treeitem"][aria-selected="true"]');
const toolbar = (name: string) => app.page.getByRole('toolbar').getByRole('button', { name, exact: true });
/** The rig's bodies (translucent shapes): the Overlays group's Bodies toggle, one switch for editing and preview. */
const bodiesToggle = () => toolbar('Show bodies');
const setBodiesShown = async (on: boolean) => {
  if ((await bodiesToggle().getAttribute('aria-pressed')) !== String(on)) await bodiesToggle().click();
  await eventually(() => bodiesToggle().getAttribute('aria-pressed')).toBe(String(on));
  await nextFrames(app.page);
};
const attrsOf = (rows: ReturnType<typeof boneRows>, attr: string) => rows.evaluateAll((els, a) => els.map((e) => e.getAttribute(a)), attr);
const bodyScreenPosition = (body: string) => app.page.evaluate((b) => (window as unknown as { __marionetteAuthoring: { bodyScreenPosition(b: string): { x: number; y: number } | null } }).__marionetteAuthoring.bodyScreenPosition(b), body);

describe('editor shell', () => {
  it('starts with the Armed Mine open and its four bones listed in the outliner', async () => {
    const creature = await hook(app.page, 'creature');
    expect(creature?.fileName).toBe('armed-mine.glb');
    expect(creature?.bones).toEqual([
      { name: 'body', parent: null },
      { name: 'upper_arm', parent: 'body' },
      { name: 'forearm', parent: 'upper_arm' },
      { name: 'hand', parent: 'forearm' },
    ]);
    // The Skeleton section lists exactly the four bones, in hierarchy order, each row named by its bone.
    expect(await boneRows().allTextContents()).toEqual(['body', 'upper_arm', 'forearm', 'hand']);
    expect(await attrsOf(boneRows(), 'data-bone')).toEqual(['body', 'upper_arm', 'forearm', 'hand']);
    await eventually(() => app.page.getByTestId('statusbar').textContent()).toContain('4 bones');
    // The mine opens with its physics rig: the Bodies and Joints sections list the rig's bodies and joints.
    const rig = ((await hook(app.page, 'document')) as { rig: { bodies: { name: string }[]; joints: { name: string }[] } }).rig;
    expect(rig.bodies.map((b) => b.name)).toEqual(['body', 'upper_arm', 'forearm', 'hand']);
    expect(await attrsOf(app.page.getByTestId('outliner-bodies').getByRole('treeitem'), 'data-body')).toEqual(rig.bodies.map((b) => b.name));
    expect(await attrsOf(app.page.getByTestId('outliner-joints').getByRole('treeitem'), 'data-joint')).toEqual(rig.joints.map((j) => j.name));
    expect(rig.joints.map((j) => j.name)).toEqual(['shoulder', 'elbow', 'wrist']);
  });

  it('renders the creature with WebGL: thousands of non-background pixels, fewer with the mesh hidden', async () => {
    // At startup the creature reads as itself: its translucent bodies are off (they would cover the skin).
    expect(await bodiesToggle().getAttribute('aria-pressed')).toBe('false');
    await nextFrames(app.page);
    const startup = await countPixels(app.page);
    // The grid and floor alone are a few percent of the view; the mine and its overlays add as much again.
    expect(startup.nonBackground).toBeGreaterThan(startup.total * 0.05);
    // The mesh's own pixels (the skeleton, drawn over the mesh, off for both counts).
    // The mine's silhouette (ball, spikes, arm) is about 13,000 px of the ~256,000 px view at 1280 × 800.
    expect(await meshPixels(app.page)).toBeGreaterThan(10_000);
  });

  it('selecting a bone in the outliner selects and highlights it in the viewport', async () => {
    // Only the skeleton on screen, so the selection colour cannot come from the mine's brass.
    await toolbar('Show mesh').click();
    await nextFrames(app.page);
    const before = await countPixels(app.page);
    await boneRow('forearm').click();
    await nextFrames(app.page);
    const after = await countPixels(app.page);
    await toolbar('Show mesh').click();
    expect(await hook(app.page, 'selection')).toEqual({ kind: 'bone', name: 'forearm' });
    expect(await hook(app.page, 'highlightedBones')).toEqual(['forearm']);
    expect(before.highlight).toBeLessThan(20);
    expect(after.highlight).toBeGreaterThan(before.highlight + 100);
    await eventually(() => app.page.getByTestId('bone-inspector').textContent()).toContain('upper_arm');
  });

  it('clicking a bone gizmo in the viewport selects the bone, even inside a drawn body; a body elsewhere; empty floor clears', async () => {
    // With the bodies drawn, every bone below sits inside a body shape: the skeleton, drawn on top, wins.
    await setBodiesShown(true);
    const hand = await hook(app.page, 'boneScreenPosition', 'hand');
    expect(hand).not.toBeNull();
    await app.page.mouse.click(hand!.x, hand!.y);
    await eventually(() => hook(app.page, 'selection')).toEqual({ kind: 'bone', name: 'hand' });
    expect(await selectedRow().getAttribute('data-bone')).toBe('hand');

    // The middle of the upper arm's bone stick belongs to upper_arm.
    const a = (await hook(app.page, 'boneScreenPosition', 'upper_arm'))!;
    const b = (await hook(app.page, 'boneScreenPosition', 'forearm'))!;
    await app.page.mouse.click((a.x + b.x) / 2, (a.y + b.y) / 2);
    await eventually(() => hook(app.page, 'selection')).toEqual({ kind: 'bone', name: 'upper_arm' });
    expect(await selectedRow().getAttribute('data-bone')).toBe('upper_arm');

    // On the ball's body shape, 25 px from the body joint on the side away from the arm: no gizmo there,
    // so the drawn body takes the click (its outliner row, not the bone's, is selected).
    const centre = (await bodyScreenPosition('body'))!;
    const away = Math.hypot(centre.x - a.x, centre.y - a.y);
    await app.page.mouse.click(centre.x + ((centre.x - a.x) / away) * 25, centre.y + ((centre.y - a.y) / away) * 25);
    // A click on a drawn body picks the shape under the cursor (kind "shape", the body's name, its index).
    await eventually(() => hook(app.page, 'selection')).toMatchObject({ kind: 'shape', name: 'body', index: expect.any(Number) });
    expect(await selectedRow().getAttribute('data-body')).toBe('body');
    expect(await boneRow('body').getAttribute('aria-selected')).toBe('false');

    const box = (await app.page.getByTestId('viewport').boundingBox())!;
    await app.page.mouse.click(box.x + 12, box.y + box.height - 12);
    await eventually(() => hook(app.page, 'selection')).toBe(null);
    expect(await selectedRow().count()).toBe(0);
    await setBodiesShown(false);
  });

  it('clicking the skinned mesh selects the bone that dominates the triangle under the cursor; a drawn body there wins', async () => {
    await toolbar('Show skeleton').click();
    const body = (await hook(app.page, 'boneScreenPosition', 'body'))!;
    // The body bone sits at the centre of the sphere; straight at it the cursor is on the shell skinned to body.
    await app.page.mouse.click(body.x, body.y);
    await eventually(() => hook(app.page, 'selection')).toEqual({ kind: 'bone', name: 'body' });
    expect(await selectedRow().getAttribute('data-bone')).toBe('body');
    // The same click with the bodies drawn lands on the ball's body shape, which is picked before the mesh.
    await setBodiesShown(true);
    await app.page.mouse.click(body.x, body.y);
    await eventually(async () => selectedRow().getAttribute('data-body')).toBe('body');
    expect(await hook(app.page, 'selection')).toMatchObject({ kind: 'shape', name: 'body' });
    expect(await boneRow('body').getAttribute('aria-selected')).toBe('false');
    await setBodiesShown(false);
    await toolbar('Show skeleton').click();
  });

  it('undoes and redoes a document edit with Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y', async () => {
    await boneRow('hand').click();
    expect(await hook(app.page, 'dirty')).toBe(false);
    await app.page.getByLabel('Include in ragdoll').uncheck();
    const excluded = async () => ((await hook(app.page, 'document')) as { rig: { extras?: { editor?: { excludedBones?: string[] } } } }).rig.extras?.editor?.excludedBones ?? [];
    expect(await excluded()).toEqual(['hand']);
    expect(await hook(app.page, 'dirty')).toBe(true);
    await app.page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => undefined);
    await app.page.keyboard.press('Control+z');
    expect(await excluded()).toEqual([]);
    expect(await hook(app.page, 'dirty')).toBe(false);
    await app.page.keyboard.press('Control+Shift+z');
    expect(await excluded()).toEqual(['hand']);
    await app.page.keyboard.press('Control+z');
    await app.page.keyboard.press('Control+y');
    expect(await excluded()).toEqual(['hand']);
    expect(await hook(app.page, 'undoDepth')).toBe(1);
    await app.page.keyboard.press('Control+z');
  });
});
