/**
 * Files: creatures opened through the file picker (glb, gltf with an external .bin, fbx), broken files
 * refused with a message while the editor keeps its creature, and a project saved, reopened after a
 * reload and found identical.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { launchApp, MENU, type App } from './harness/app';
import { eventually, hook, meshPixels, nextFrames } from './harness/hook';

const creatures = fileURLToPath(new URL('../../assets/creatures/', import.meta.url));
let app: App;
beforeAll(async () => { app = await launchApp(); });
afterAll(async () => { await app?.close(); });

const boneNames = async () => (await hook(app.page, 'creature'))?.bones.map((b) => b.name) ?? [];
const errorToast = () => app.page.getByTestId('toast-error').last();

describe('creature and project files', () => {
  it('opens a .gltf whose geometry is in an external .bin picked along with it', async () => {
    await app.pickFiles(MENU.openCreature, [path.join(creatures, 'armed-mine.gltf'), path.join(creatures, 'armed-mine.bin')]);
    await eventually(async () => (await hook(app.page, 'creature'))?.fileName).toBe('armed-mine.gltf');
    expect(await boneNames()).toEqual(['body', 'upper_arm', 'forearm', 'hand']);
  });

  it('File keeps its layout when the recent list arrives: Open Recent is there at once, Export does not move', async () => {
    // The menu reads the recent list each time it opens (an IndexedDB read in the web build). The list
    // changed since File last opened (the .gltf above), so the first opening shows the new entry once
    // the read ends: the items under the pointer must stay where they were drawn.
    const tops = await app.page.evaluate(async () => {
      const bar = document.querySelector('[role="menubar"]')!;
      const item = (label: string) => bar.querySelector(`[role="menuitem"][aria-label="${label}"]`);
      const exportTop = () => item('Export')?.getBoundingClientRect().top ?? NaN;
      // The first drawing of the open menu, seen by a MutationObserver right after React commits it.
      const first = new Promise<{ export: number; recent: boolean }>((resolve) => {
        const seen = new MutationObserver(() => {
          if (item('Export') === null) return;
          seen.disconnect();
          resolve({ export: exportTop(), recent: item('Open Recent') !== null });
        });
        seen.observe(bar, { childList: true, subtree: true });
      });
      const title = Array.from(bar.querySelectorAll('.menu-title')).find((b) => b.textContent === 'File')!;
      title.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true }));
      const drawn = await first;
      const t0 = performance.now();
      while (item('armed-mine.gltf') === null && performance.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 20));
      return { first: drawn, listed: item('armed-mine.gltf') !== null, export: exportTop() };
    });
    await app.page.keyboard.press('Escape');
    expect(tops.first.recent).toBe(true);
    expect(tops.listed).toBe(true);
    expect(Number.isFinite(tops.first.export)).toBe(true);
    expect(tops.export).toBe(tops.first.export);
  });

  it('opens the humanoid .glb and lists its bones', async () => {
    await app.pickFiles(MENU.openCreature, [path.join(creatures, 'humanoid.glb')]);
    await eventually(async () => (await hook(app.page, 'creature'))?.fileName).toBe('humanoid.glb');
    const names = await boneNames();
    for (const b of ['pelvis', 'spine', 'head', 'upper_arm_l', 'upper_arm_r', 'forearm_l', 'forearm_r', 'thigh_l', 'thigh_r', 'shin_l', 'shin_r', 'foot_l', 'foot_r']) expect(names).toContain(b);
    expect(await app.page.locator('[data-testid="outliner"] [role="treeitem"]').count()).toBe(names.length);
  });

  it('a corrupt .glb shows an error naming the file and the editor keeps the creature it had', async () => {
    const before = await hook(app.page, 'document');
    const broken = path.join(app.tmp, 'broken.glb');
    // A GLB header whose declared length and chunk are garbage.
    writeFileSync(broken, Buffer.concat([Buffer.from('glTF'), Buffer.from([2, 0, 0, 0, 0xff, 0, 0, 0]), Buffer.alloc(40, 7)]));
    await app.pickFiles(MENU.openCreature, [broken]);
    await eventually(() => errorToast().textContent({ timeout: 20_000 })).toContain('broken.glb');
    await eventually(() => hook(app.page, 'status')).toContain('broken.glb');
    expect((await hook(app.page, 'creature'))?.fileName).toBe('humanoid.glb');
    expect(await hook(app.page, 'document')).toEqual(before);
  });

  it('a .gltf without its .bin is refused with a message that names the missing file', async () => {
    const lonely = path.join(app.tmp, 'lonely.gltf');
    writeFileSync(lonely, readFileSync(path.join(creatures, 'armed-mine.gltf')));
    await app.pickFiles(MENU.openCreature, [lonely]);
    await eventually(() => errorToast().textContent({ timeout: 20_000 })).toContain('armed-mine.bin');
    expect((await hook(app.page, 'creature'))?.fileName).toBe('humanoid.glb');
  });

  it('save → reload → open gives the same document, selection and creature', async () => {
    await app.page.locator('[data-testid="outliner"] [role="treeitem"]', { hasText: 'foot_l' }).click();
    await app.page.getByLabel('Include in ragdoll').uncheck();
    await app.page.getByLabel('Bone note').fill('toe bones merge here');
    await app.page.getByLabel('Bone note').blur();
    await app.page.keyboard.press('Escape');
    await app.page.getByLabel('Creature name').fill('Walker');
    await app.page.getByLabel('Creature name').press('Enter');
    await app.page.locator('[data-testid="outliner"] [role="treeitem"]', { hasText: 'head' }).click();
    const before = await hook(app.page, 'document');
    expect(before).toMatchObject({ rig: { name: 'Walker', extras: { editor: { excludedBones: ['foot_l'], notes: { foot_l: 'toe bones merge here' } } } } });
    expect(await hook(app.page, 'dirty')).toBe(true);

    const saved = await app.saveTo(MENU.saveAs, path.join(app.tmp, 'walker.marionette'));
    await eventually(() => hook(app.page, 'dirty')).toBe(false);
    const onDisk = JSON.parse(readFileSync(saved, 'utf8'));
    expect(onDisk.format).toBe('marionette-project');
    expect(onDisk.rig).toEqual((before as { rig: unknown }).rig);

    await app.reload();
    expect((await hook(app.page, 'creature'))?.fileName).toBe('armed-mine.glb');
    await app.pickFiles(MENU.openProject, [saved]);
    await eventually(async () => (await hook(app.page, 'creature'))?.fileName).toBe('humanoid.glb');
    expect(await hook(app.page, 'document')).toEqual(before);
    expect(await hook(app.page, 'selection')).toEqual({ kind: 'bone', name: 'head' });
    expect(await hook(app.page, 'dirty')).toBe(false);
  });

  it('opens the humanoid .fbx (ASCII FBX 7.4, cm): the same bones as the .glb, and its mesh drawn', async () => {
    await app.pickFiles(MENU.openCreature, [path.join(creatures, 'humanoid.glb')]);
    await eventually(async () => (await hook(app.page, 'creature'))?.fileName).toBe('humanoid.glb');
    const glbBones = await boneNames();
    await nextFrames(app.page);
    const glbMesh = await meshPixels(app.page);

    await app.pickFiles(MENU.openCreature, [path.join(creatures, 'humanoid.fbx')]);
    await eventually(async () => (await hook(app.page, 'creature'))?.fileName).toBe('humanoid.fbx');
    expect(await boneNames()).toEqual(glbBones);
    expect(await app.page.locator('[data-testid="outliner"] [role="treeitem"]').count()).toBe(glbBones.length);
    await nextFrames(app.page);
    // The same 1.8 m figure, framed the same way once converted to metres: its mesh covers thousands of
    // pixels at 1280 × 800 like the .glb's (measured 12–17 k for the .glb, 16–22 k for the .fbx: FBX
    // has no metalness and its shading differs, so fewer of its pixels sit near the background colour).
    expect(glbMesh).toBeGreaterThan(3000);
    expect(await meshPixels(app.page)).toBeGreaterThan(glbMesh * 0.6);
  });

  it('a corrupt .fbx shows an error naming the file and the editor keeps the creature it had', async () => {
    const before = await hook(app.page, 'document');
    const broken = path.join(app.tmp, 'broken.fbx');
    // A binary FBX 7.4 header followed by a node record whose sizes point past the end of the file.
    writeFileSync(broken, Buffer.concat([Buffer.from('Kaydara FBX Binary  \0\x1a\0', 'latin1'), Buffer.from([0xe8, 0x1c, 0, 0]), Buffer.alloc(200, 0x7f)]));
    await app.pickFiles(MENU.openCreature, [broken]);
    await eventually(() => errorToast().textContent({ timeout: 20_000 })).toContain('broken.fbx');
    await eventually(() => hook(app.page, 'status')).toContain('broken.fbx');
    expect((await hook(app.page, 'creature'))?.fileName).toBe('humanoid.fbx');
    expect(await hook(app.page, 'document')).toEqual(before);
  });
});
