/**
 * Creature scale in the editor (issue 10 item 1/4), on the corpus Fox (Khronos; authored about 80 units
 * tall, which glTF reads as 80 m): opening it flags its size — a notice naming the file and its height —
 * and the viewport's banner rescales it to the height typed there as one undo step: the rig records the
 * factor (skeleton.scale), its bones are scaled, the mesh is drawn at that scale and framed; Ctrl+Z takes
 * it back. Generate on the rescaled fox then gives a rig the rig checks have nothing to say about.
 * The rig checks' rest-overlap warning and its Fix (one undo step) on a project whose humanoid collides
 * with itself and wears a big sphere on its head.
 */
import path from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, MENU, type App } from './harness/app';
import { hook, meshPixels, nextFrames } from './harness/hook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

const corpus = JSON.parse(readFileSync('assets/third-party/corpus.json', 'utf8')) as { creatures: { name: string; file: string; fileHeight: number; heightMetres: number }[] };
const fox = corpus.creatures.find((c) => c.name === 'Fox')!;
type Rig = { skeleton: { scale?: number; bones: { name: string; rest: { translation: number[] } }[] }; bodies: unknown[] };
const rig = async () => ((await hook(app.page, 'document')) as { rig: Rig }).rig;
const banner = () => app.page.getByTestId('scale-banner');

describe('creature scale', () => {
  let fileBones: Rig['skeleton']['bones'] = [];

  it('opening the Fox flags its size: a notice and the banner name the file and its height', async () => {
    const page = app.page;
    await app.pickFiles(MENU.openCreature, [path.resolve(fox.file)]);
    await expect.poll(async () => (await hook(page, 'creature'))?.fileName, { timeout: 60_000 }).toBe('Fox.glb');
    await expect.poll(() => banner().count()).toBe(1);
    const text = (await banner().textContent())!;
    expect(text).toContain('Fox.glb');
    // Its height as measured, in metres, within 2 % of what the corpus says the file holds.
    const m = /(\d+(?:\.\d+)?) m tall/.exec(text);
    expect(m).not.toBeNull();
    expect(Math.abs(Number(m![1]) / fox.fileHeight - 1)).toBeLessThan(0.02);
    expect(text).toMatch(/centimetres/);
    // The same message as a notice (toast and status line).
    await expect.poll(() => page.locator('.toast').allTextContents().then((t) => t.join('\n'))).toContain('Fox.glb');
    expect((await rig()).skeleton.scale).toBeUndefined();
    fileBones = (await rig()).skeleton.bones;
  });

  it('Rescale to the height typed: one undo step, skeleton.scale and the bones scaled, the mesh drawn and framed; Ctrl+Z undoes it', async () => {
    const page = app.page;
    const depth = await hook(page, 'undoDepth');
    await banner().getByRole('textbox', { name: 'Rescale to height' }).fill(String(fox.heightMetres));
    await banner().getByRole('button', { name: 'Rescale', exact: true }).click();
    await expect.poll(() => banner().count()).toBe(0);
    expect(await hook(page, 'undoDepth')).toBe(depth + 1);
    const r = await rig();
    const k = r.skeleton.scale!;
    // Within 1 % of height / file height (the measured file height is the mesh's, the corpus's too).
    expect(Math.abs(k / (fox.heightMetres / fox.fileHeight) - 1)).toBeLessThan(0.01);
    r.skeleton.bones.forEach((b, i) => {
      for (let a = 0; a < 3; a++) expect(b.rest.translation[a]!).toBeCloseTo(fileBones[i]!.rest.translation[a]! * k, 6);
    });
    // Drawn at the new scale and framed on it: the mesh covers the view's middle.
    await nextFrames(page, 6);
    expect(await meshPixels(page)).toBeGreaterThan(5_000);
    // Undo: the file's size again, and the banner back.
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await rig()).skeleton.scale).toBeUndefined();
    await expect.poll(() => banner().count()).toBe(1);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(async () => (await rig()).skeleton.scale).toBe(k);
    await expect.poll(() => banner().count()).toBe(0);
  });

  it('Generate on the rescaled Fox: bodies at its size, and no rig warning (far from bone, degenerate, overlap, scale)', async () => {
    const page = app.page;
    await page.getByRole('toolbar').getByRole('button', { name: 'Generate from skeleton', exact: true }).click();
    await page.getByTestId('generate-dialog').getByRole('button', { name: 'Generate', exact: true }).click();
    await expect.poll(async () => (await rig()).bodies.length, { timeout: 30_000 }).toBeGreaterThan(5);
    // The checks run a moment after the rig settles.
    await page.waitForTimeout(1000);
    const warnings = await page.getByTestId('rig-warnings').count() > 0 ? await page.getByTestId('rig-warnings').textContent() : '';
    expect(warnings).toBe('');
  });

  it('a rest overlap is listed under the outliner; Fix filters the pair from each other as one undo step', async () => {
    const page = app.page;
    // The shipped humanoid rig, every body colliding with every other, and a 0.3 m sphere on the head that
    // reaches into both upper arms (not jointed to the head).
    const rigJson = JSON.parse(readFileSync('assets/creatures/humanoid.rig.json', 'utf8')) as { bodies: { name: string; collisionMask: number; shapes: unknown[] }[] };
    for (const b of rigJson.bodies) {
      b.collisionMask = 0xffffffff;
      if (b.name === 'head') b.shapes.push({ type: 'sphere', position: [0, 0, 0], rotation: [0, 0, 0, 1], radius: 0.3, hollow: false });
    }
    const file = path.join(app.tmp, 'overlap.marionette');
    writeFileSync(file, JSON.stringify({ format: 'marionette-project', version: 1, creature: { name: 'humanoid.glb', path: null, builtin: 'humanoid' }, rig: rigJson }));
    // Open Project asks about unsaved changes (the Fox) first, then shows the picker.
    const discard = page.getByTestId('prompt').getByRole('button', { name: "Don't save", exact: true });
    if (app.target === 'electron') await app.pickFiles(MENU.openProject, [file]); // the native dialog answers at once
    else {
      let picked = false;
      const chooser = page.waitForEvent('filechooser').then(async (c) => { await c.setFiles([file]); picked = true; });
      await app.menu(MENU.openProject);
      await expect.poll(async () => { if (await discard.isVisible()) await discard.click(); return picked; }, { timeout: 30_000, interval: 250 }).toBe(true);
      await chooser;
    }
    await expect.poll(async () => {
      if (await discard.isVisible()) await discard.click();
      return (await hook(page, 'creature'))?.fileName;
    }, { timeout: 60_000, interval: 250 }).toBe('humanoid.glb');
    const list = page.getByTestId('rig-warnings');
    await expect.poll(() => list.locator('[data-warning="rest-overlap"]').allTextContents(), { timeout: 20_000 })
      .toEqual([expect.stringMatching(/"head" and "upper_arm_[lr]" overlap by \d+\.\d mm/), expect.stringMatching(/"head" and "upper_arm_[lr]" overlap by \d+\.\d mm/)]);
    const depth = await hook(page, 'undoDepth');
    await list.getByRole('button', { name: 'Fix overlaps', exact: true }).click();
    await expect.poll(() => hook(page, 'undoDepth')).toBe(depth + 1);
    await expect.poll(() => list.locator('[data-warning="rest-overlap"]').count(), { timeout: 20_000 }).toBe(0);
    await page.keyboard.press('Control+z');
    await expect.poll(() => list.locator('[data-warning="rest-overlap"]').count(), { timeout: 20_000 }).toBe(2);
    // Rig › Fix Rest Overlaps does the same, one undo step.
    await app.menu({ menu: 'Rig', item: 'Fix Rest Overlaps', command: 'fix-rest-overlaps' });
    await expect.poll(() => hook(page, 'undoDepth')).toBe(depth + 1);
    await expect.poll(() => list.locator('[data-warning="rest-overlap"]').count(), { timeout: 20_000 }).toBe(0);
    await page.keyboard.press('Control+z');
    await expect.poll(() => list.locator('[data-warning="rest-overlap"]').count(), { timeout: 20_000 }).toBe(2);
  });
});
