/**
 * The editor as a user first meets it: the Armed Mine open in a rendered viewport, its bones in the
 * outliner, selection shared between outliner and viewport, undo/redo from the keyboard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, type App } from './harness/app';
import { countPixels, eventually, hook, nextFrames } from './harness/hook';

let app: App;
beforeAll(async () => { app = await launchApp(); });
afterAll(async () => { await app?.close(); });

const outlinerRows = () => app.page.locator('[data-testid="outliner"] [role="treeitem"]');
const selectedRow = () => app.page.locator('[data-testid="outliner"] [role="treeitem"][aria-selected="true"]');
const toolbar = (name: string) => app.page.getByRole('toolbar').getByRole('button', { name });

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
    expect(await outlinerRows().allTextContents()).toEqual(['body', 'upper_arm', 'forearm', 'hand']);
    await eventually(() => app.page.getByTestId('statusbar').textContent()).toContain('4 bones');
  });

  it('renders the creature with WebGL: thousands of non-background pixels, fewer with the mesh hidden', async () => {
    await nextFrames(app.page);
    const withMesh = await countPixels(app.page);
    // The grid and floor alone are a few percent of the view; the mine adds tens of thousands of pixels.
    expect(withMesh.nonBackground).toBeGreaterThan(withMesh.total * 0.05);
    await toolbar('Show mesh').click();
    await nextFrames(app.page);
    const withoutMesh = await countPixels(app.page);
    await toolbar('Show mesh').click();
    expect(withMesh.nonBackground - withoutMesh.nonBackground).toBeGreaterThan(10_000);
  });

  it('selecting a bone in the outliner selects and highlights it in the viewport', async () => {
    // Only the skeleton on screen, so the selection colour cannot come from the mine's brass.
    await toolbar('Show mesh').click();
    await nextFrames(app.page);
    const before = await countPixels(app.page);
    await outlinerRows().filter({ hasText: 'forearm' }).click();
    await nextFrames(app.page);
    const after = await countPixels(app.page);
    await toolbar('Show mesh').click();
    expect(await hook(app.page, 'selection')).toBe('forearm');
    expect(await hook(app.page, 'highlightedBones')).toEqual(['forearm']);
    expect(before.highlight).toBeLessThan(20);
    expect(after.highlight).toBeGreaterThan(before.highlight + 100);
    await eventually(() => app.page.getByTestId('bone-inspector').textContent()).toContain('upper_arm');
  });

  it('clicking a bone in the viewport selects it in the outliner; clicking empty floor clears the selection', async () => {
    const hand = await hook(app.page, 'boneScreenPosition', 'hand');
    expect(hand).not.toBeNull();
    await app.page.mouse.click(hand!.x, hand!.y);
    await eventually(() => hook(app.page, 'selection')).toBe('hand');
    expect(await selectedRow().textContent()).toBe('hand');

    // The middle of the upper arm's bone stick belongs to upper_arm.
    const a = (await hook(app.page, 'boneScreenPosition', 'upper_arm'))!;
    const b = (await hook(app.page, 'boneScreenPosition', 'forearm'))!;
    await app.page.mouse.click((a.x + b.x) / 2, (a.y + b.y) / 2);
    await eventually(() => hook(app.page, 'selection')).toBe('upper_arm');
    expect(await selectedRow().textContent()).toBe('upper_arm');

    const box = (await app.page.getByTestId('viewport').boundingBox())!;
    await app.page.mouse.click(box.x + 12, box.y + box.height - 12);
    await eventually(() => hook(app.page, 'selection')).toBe(null);
    expect(await selectedRow().count()).toBe(0);
  });

  it('clicking the skinned mesh selects the bone that dominates the triangle under the cursor', async () => {
    await toolbar('Show skeleton').click();
    const body = (await hook(app.page, 'boneScreenPosition', 'body'))!;
    // The body bone sits at the centre of the sphere; straight at it the cursor is on the shell skinned to body.
    await app.page.mouse.click(body.x, body.y);
    await toolbar('Show skeleton').click();
    await eventually(() => hook(app.page, 'selection')).toBe('body');
  });

  it('undoes and redoes a document edit with Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y', async () => {
    await outlinerRows().filter({ hasText: 'hand' }).click();
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
