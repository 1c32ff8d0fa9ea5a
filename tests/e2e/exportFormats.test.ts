/**
 * File › Export › MJCF and › glTF: the downloaded files pass the same judges as the CLI's — MuJoCo
 * (mujoco-js) loads the MJCF with one body per body and one actuator per motorised DOF, the Khronos
 * glTF-Validator reports 0 errors on the GLB, which keeps the creature's skin and imports back to the rig.
 * Downloads are a browser feature: the web target only (Electron writes through its save dialog, whose
 * request path tests/unit/electron covers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launchApp, MENU, type App } from './harness/app';
import { eventually, hook } from './harness/hook';
import { importGltfBytes } from '../../shared/export/gltfImport';
import { loadMjcf } from '../unit/export/mujoco';
import { validateGlb } from '../unit/export/validator';

let app: App;
beforeAll(async () => { app = await launchApp(); });
afterAll(async () => { await app?.close(); });

async function exportAs(label: string, file: string): Promise<string> {
  const page = app.page;
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    (async () => {
      await page.getByRole('menubar').getByRole('menuitem', { name: 'File', exact: true }).click();
      await page.getByRole('menu').getByRole('menuitem', { name: 'Export', exact: true }).hover();
      await page.getByRole('menu').getByRole('menuitem', { name: label, exact: true }).click();
    })(),
  ]);
  await download.saveAs(file);
  return file;
}

describe.runIf(process.env.MARIONETTE_E2E_TARGET !== 'electron')('File › Export › MJCF and glTF (web)', () => {
  it('the Armed Mine as MJCF: MuJoCo loads it with its bodies and actuators', async () => {
    await eventually(async () => (await hook(app.page, 'creature'))?.fileName).toBe('armed-mine.glb');
    const file = await exportAs('MJCF (MuJoCo)…', path.join(app.tmp, 'armed-mine.xml'));
    const xml = readFileSync(file, 'utf8');
    expect(xml).toMatch(/^<!--\s*\nMarionette MJCF export/);
    const { model } = await loadMjcf(xml, file);
    expect(model.nbody).toBe(5); // world + body, upper_arm, forearm, hand
    expect(model.nu).toBe(5); // shoulder ×3, elbow, wrist
  });

  it('the Armed Mine as glTF: 0 validator errors, the skin and animations kept, imports back to the rig', async () => {
    const file = await exportAs('glTF + KHR Physics (Draft)…', path.join(app.tmp, 'armed-mine.glb'));
    const bytes = new Uint8Array(readFileSync(file));
    const report = await validateGlb(bytes);
    expect(report.issues.numErrors, JSON.stringify(report.issues.messages.filter((m) => m.severity === 0))).toBe(0);
    const { rig, document } = await importGltfBytes(bytes, file);
    expect(document.getRoot().listSkins().length).toBeGreaterThan(0);
    expect(document.getRoot().listAnimations().length).toBeGreaterThan(0);
    const shown = await hook(app.page, 'document');
    const doc = shown as { rig: { bodies: { name: string }[]; joints: { name: string }[] } };
    expect(rig.bodies.map((b) => b.name)).toEqual(doc.rig.bodies.map((b) => b.name));
    expect(rig.joints.map((j) => j.name)).toEqual(doc.rig.joints.map((j) => j.name));
    await eventually(() => app.page.getByTestId('toast-info').last().textContent()).toContain('draft extensions');
  });

  it('opening the exported GLB gives the creature and its rig back (bodies, joints, masses)', async () => {
    const before = (await hook(app.page, 'document')) as { rig: { bodies: { name: string; mass: number | null; density: number | null }[]; joints: { name: string; type: string }[] } };
    await app.pickFiles(MENU.openCreature, [path.join(app.tmp, 'armed-mine.glb')]);
    await eventually(async () => (await hook(app.page, 'creature'))?.fileName).toBe('armed-mine.glb');
    await eventually(async () => ((await hook(app.page, 'document')) as typeof before).rig.bodies.length).toBe(before.rig.bodies.length);
    const after = (await hook(app.page, 'document')) as typeof before;
    expect(after.rig.bodies.map((b) => [b.name, b.mass, b.density])).toEqual(before.rig.bodies.map((b) => [b.name, b.mass, b.density]));
    expect(after.rig.joints.map((j) => [j.name, j.type])).toEqual(before.rig.joints.map((j) => [j.name, j.type]));
    await eventually(() => app.page.getByTestId('toast-info').last().textContent()).toContain('rig imported from KHR_physics_rigid_bodies');
  });

  it('opening the exported MJCF gives a rig with the same bodies and joints, its shapes drawn with no mesh', async () => {
    const before = (await hook(app.page, 'document')) as { rig: { bodies: { name: string }[]; joints: { name: string; type: string }[] } };
    await app.pickFiles(MENU.openCreature, [path.join(app.tmp, 'armed-mine.xml')]);
    await eventually(async () => (await hook(app.page, 'creature'))?.fileName).toBe('armed-mine.xml');
    await eventually(async () => ((await hook(app.page, 'document')) as typeof before).rig.bodies.length).toBe(before.rig.bodies.length);
    const after = (await hook(app.page, 'document')) as typeof before;
    expect(after.rig.bodies.map((b) => b.name)).toEqual(before.rig.bodies.map((b) => b.name));
    expect(after.rig.joints.map((j) => [j.name, j.type])).toEqual(before.rig.joints.map((j) => [j.name, j.type]));
    await eventually(() => app.page.getByTestId('toast-info').last().textContent()).toContain('rig imported from the MJCF');
    expect(app.pageErrors).toEqual([]);
  });
});
