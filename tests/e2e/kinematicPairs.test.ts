/**
 * Issue 12 item 2 in the production web build: the joint inspector offers the screw, cylindrical and planar
 * types; switching a generated joint to each shows its own limit fields (angle, slide, slide Y/Z, pitch);
 * typing a slide limit changes the rig and the viewport's slide gizmo (read back from what is drawn), bad
 * input is refused at the field; the slide motor panel edits the slide motor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { MENU, launchApp, type App } from './harness/app';
import { hook, hookCaller } from './harness/hook';
import type { AuthoringTestHook } from '../../renderer/src/authoring/testHook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 120_000);
afterAll(async () => { await app?.close(); });

const authoring = hookCaller<AuthoringTestHook>('__marionetteAuthoring');
type Joint = { name: string; type: string; pitch?: number; limit?: [number, number] | null; slideLimit?: [number, number] | null; slideLimitY?: [number, number] | null; slideMotor?: { mode: string; maxTorque: number } };
const joint = async (name: string) => ((await hook(app.page, 'document')) as { rig: { joints: Joint[] } }).rig.joints.find((j) => j.name === name)!;
const toolbarButton = (name: string) => app.page.getByRole('toolbar').getByRole('button', { name, exact: true });
const field = (label: string) => app.page.getByTestId('inspector').getByRole('textbox', { name: label, exact: true });
const drawn = async (name: string, kind: string) => (await authoring(app.page, 'limits')).find((l) => l.joint === name && l.kind === kind);

let hingeDepth = 0;

describe('screw, cylindrical and planar joints in the joint inspector', () => {
  it('offers the new types; a cylindrical slide limit typed in the inspector changes the rig and the drawn slide range', async () => {
    await app.pickFiles(MENU.openCreature, [path.resolve('assets/creatures/humanoid.glb')]);
    await expect.poll(async () => (await hook(app.page, 'creature'))?.fileName, { timeout: 30_000 }).toBe('humanoid.glb');
    await toolbarButton('Generate from skeleton').click();
    await app.page.getByTestId('generate-dialog').getByRole('button', { name: 'Generate', exact: true }).click();
    await expect.poll(async () => ((await hook(app.page, 'document')) as { rig: { bodies: unknown[] } }).rig.bodies.length).toBe(13);

    await app.page.getByTestId('outliner-joints').locator('[data-joint="shin_l"]').click();
    await expect.poll(() => app.page.getByTestId('joint-inspector').count()).toBe(1);
    const typeSelect = app.page.getByTestId('joint-inspector').getByRole('combobox', { name: 'Joint type' });
    expect(await typeSelect.locator('option').allTextContents()).toEqual(['ball', 'hinge', 'fixed', 'prismatic', 'screw', 'cylindrical', 'planar']);

    hingeDepth = await hook(app.page, 'undoDepth');
    await typeSelect.selectOption('cylindrical');
    await expect.poll(async () => (await joint('shin_l')).type).toBe('cylindrical');
    expect(await app.page.getByTestId('slide-motor').count()).toBe(1);
    await field('Slide min').fill('-0.05');
    await field('Slide min').press('Enter');
    await expect.poll(async () => (await joint('shin_l')).slideLimit).toEqual([-0.05, 1]);
    await field('Slide max').fill('0.12');
    await field('Slide max').press('Enter');
    await expect.poll(async () => (await joint('shin_l')).slideLimit).toEqual([-0.05, 0.12]);
    await expect.poll(async () => (await drawn('shin_l', 'slide'))?.max).toBeCloseTo(0.12, 6);
    expect((await drawn('shin_l', 'slide'))!.min).toBeCloseTo(-0.05, 6);
    expect((await drawn('shin_l', 'slide'))!.selected).toBe(true);
    // The angle limit is the hinge's arc.
    await field('Angle max').fill('30');
    await field('Angle max').press('Enter');
    await expect.poll(async () => (await joint('shin_l')).limit![1]).toBeCloseTo((30 * Math.PI) / 180, 6);
    await expect.poll(async () => (await drawn('shin_l', 'hinge'))?.max).toBeCloseTo((30 * Math.PI) / 180, 3);

    // Bad input: min > max is refused at the field, the document unchanged.
    const depth = await hook(app.page, 'undoDepth');
    await field('Slide min').fill('0.5');
    await field('Slide min').press('Enter');
    await expect.poll(() => app.page.locator('[data-field="slide-min"] [role="alert"]').textContent()).toContain('min must be ≤ max');
    expect(await hook(app.page, 'undoDepth')).toBe(depth);
    await field('Slide min').press('Escape');

    // The slide motor: force limit in N.
    await app.page.getByTestId('slide-motor').getByRole('textbox', { name: 'Max force', exact: true }).fill('75');
    await app.page.getByTestId('slide-motor').getByRole('textbox', { name: 'Max force', exact: true }).press('Enter');
    await expect.poll(async () => (await joint('shin_l')).slideMotor?.maxTorque).toBe(75);
  });

  it('planar shows slide Y and Z limits, screw its pitch and travel; undo returns to the hinge', async () => {
    const typeSelect = app.page.getByTestId('joint-inspector').getByRole('combobox', { name: 'Joint type' });
    await typeSelect.selectOption('planar');
    await expect.poll(async () => (await joint('shin_l')).type).toBe('planar');
    await field('Slide Y max').fill('0.2');
    await field('Slide Y max').press('Enter');
    await expect.poll(async () => (await joint('shin_l')).slideLimitY).toEqual([-1, 0.2]);
    await expect.poll(async () => (await drawn('shin_l', 'slideY'))?.max).toBeCloseTo(0.2, 6);
    expect(await field('Slide Z min').count()).toBe(1);

    await typeSelect.selectOption('screw');
    await expect.poll(async () => (await joint('shin_l')).type).toBe('screw');
    expect(await app.page.getByTestId('slide-motor').count()).toBe(0);
    await field('Screw pitch').fill('0.02');
    await field('Screw pitch').press('Enter');
    await expect.poll(async () => (await joint('shin_l')).pitch).toBe(0.02);
    // The screw's travel: pitch × its angle limit (the default ±1.5 rad), drawn along frame X.
    await expect.poll(async () => (await drawn('shin_l', 'slide'))?.max).toBeCloseTo(0.03, 6);
    await field('Screw pitch').fill('0');
    await field('Screw pitch').press('Enter');
    await expect.poll(() => app.page.locator('[data-field="pitch"] [role="alert"]').textContent()).toContain('must not be 0');
    expect((await joint('shin_l')).pitch).toBe(0.02);
    await field('Screw pitch').press('Escape');

    await app.page.locator('body').click({ position: { x: 5, y: 5 } });
    for (let depth = await hook(app.page, 'undoDepth'); depth > hingeDepth; depth--) {
      await app.page.keyboard.press('Control+z');
      await expect.poll(() => hook(app.page, 'undoDepth')).toBe(depth - 1);
    }
    expect((await joint('shin_l')).type).toBe('hinge');
    expect((await drawn('shin_l', 'slide'))).toBeUndefined();
  });
});
