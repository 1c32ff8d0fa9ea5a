/**
 * Issue 12 item 2 in the production web build: the joint inspector offers the screw, cylindrical and planar
 * types; switching a generated joint to each shows its own limit fields (angle, slide, slide Y/Z, pitch);
 * typing a slide limit changes the rig and the viewport's slide gizmo (read back from what is drawn), bad
 * input is refused at the field; the slide motor panel edits the slide motor. In the viewport the ends of a
 * slide range are handles: a drag along the drawn axis moves that end by the metres under the cursor (the
 * inspector field following live), is one undo step, Escape mid-drag restores it, and an end dragged past
 * the other stops there with the inspector's message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { MENU, launchApp, type App } from './harness/app';
import { eventually, hook, hookCaller, nextFrames } from './harness/hook';
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

/** The selected joint's slide range `kind` on screen, read until it holds still: its ends, the unit direction
 *  min → max and the pixels per metre along it (`metres` = max − min). */
async function slideOnScreen(joint: string, kind: string, metres: number) {
  let last: { x: number; y: number }[] | null = null;
  await expect.poll(async () => {
    const a = await authoring(app.page, 'slideHandleScreen', joint, kind, 0);
    const b = await authoring(app.page, 'slideHandleScreen', joint, kind, 1);
    if (!a || !b) return false;
    const stable = last !== null && Math.hypot(last[0]!.x - a.x, last[0]!.y - a.y, last[1]!.x - b.x, last[1]!.y - b.y) < 0.2;
    last = [a, b];
    return stable;
  }, { timeout: 20_000, interval: 150 }).toBe(true);
  const [lo, hi] = last! as [{ x: number; y: number }, { x: number; y: number }];
  const span = Math.hypot(hi.x - lo.x, hi.y - lo.y);
  return { lo, hi, dir: { x: (hi.x - lo.x) / span, y: (hi.y - lo.y) / span }, pxPerM: span / metres, span };
}

/** Press on `at`, move `px` pixels along `dir` in six steps, release. */
async function dragAlong(at: { x: number; y: number }, dir: { x: number; y: number }, px: number) {
  const page = app.page;
  await page.mouse.move(at.x - dir.x, at.y - dir.y);
  await page.mouse.move(at.x, at.y);
  await eventually(() => authoring(page, 'jointGizmoEnabled')).toBe(false);
  await page.mouse.down();
  expect(await authoring(page, 'dragging')).toBe(true);
  for (let i = 1; i <= 6; i++) await page.mouse.move(at.x + (dir.x * px * i) / 6, at.y + (dir.y * px * i) / 6);
  await page.mouse.up();
  expect(await authoring(page, 'dragging')).toBe(false);
}

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

  it('a prismatic slide end dragged in the viewport: metres under the cursor, live in the inspector, one undo step, Escape restores, no crossing', async () => {
    const page = app.page;
    await page.getByTestId('outliner-joints').locator('[data-joint="shin_l"]').click();
    await eventually(() => hook(page, 'selection')).toEqual({ kind: 'joint', name: 'shin_l' });
    // The rest pose on screen (the limits are drawn where the preview has the thigh): paused at frame 0.
    const playing = () => page.evaluate(() => (window as unknown as { __marionettePreview: { playing(): boolean } }).__marionettePreview.playing());
    if (await playing()) await page.keyboard.press('Space');
    await eventually(playing).toBe(false);
    await authoring(page, 'seek', 0);
    const typeSelect = page.getByTestId('joint-inspector').getByRole('combobox', { name: 'Joint type' });
    await typeSelect.selectOption('prismatic');
    await expect.poll(async () => (await joint('shin_l')).type).toBe('prismatic');
    await field('Slide min').fill('-0.05');
    await field('Slide min').press('Enter');
    await field('Slide max').fill('0.12');
    await field('Slide max').press('Enter');
    await expect.poll(async () => (await joint('shin_l')).limit).toEqual([-0.05, 0.12]);
    await expect.poll(async () => (await drawn('shin_l', 'slide'))?.max).toBeCloseTo(0.12, 6);

    // The drawn axis on screen: from the min handle to the max handle, 0.17 m apart.
    const ends = async () => {
      let last: { x: number; y: number }[] | null = null;
      await expect.poll(async () => {
        const a = await authoring(page, 'slideHandleScreen', 'shin_l', 'slide', 0);
        const b = await authoring(page, 'slideHandleScreen', 'shin_l', 'slide', 1);
        if (!a || !b) return false;
        const stable = last !== null && Math.hypot(last[0]!.x - a.x, last[0]!.y - a.y, last[1]!.x - b.x, last[1]!.y - b.y) < 0.2;
        last = [a, b];
        return stable;
      }, { timeout: 20_000, interval: 150 }).toBe(true);
      return last!;
    };
    const [lo, hi] = await ends();
    const span = Math.hypot(hi!.x - lo!.x, hi!.y - lo!.y);
    const dir = { x: (hi!.x - lo!.x) / span, y: (hi!.y - lo!.y) / span };
    const pxPerM = span / 0.17;
    console.log(`slide axis on screen: ${span.toFixed(1)} px for 0.17 m (${pxPerM.toFixed(0)} px/m)`);
    expect(span).toBeGreaterThan(15); // seen across, not end-on

    // Onto the max handle: the joint gizmo steps back (its X arrow lies along this axis).
    await page.mouse.move(hi!.x - dir.x, hi!.y - dir.y);
    await page.mouse.move(hi!.x, hi!.y);
    await eventually(() => authoring(page, 'jointGizmoEnabled')).toBe(false);
    const depth = await hook(page, 'undoDepth');
    const N = 30;
    await page.mouse.down();
    expect(await authoring(page, 'dragging')).toBe(true);
    for (let i = 1; i <= 6; i++) await page.mouse.move(hi!.x + (dir.x * N * i) / 6, hi!.y + (dir.y * N * i) / 6);
    // Live: the rig and the inspector's field follow before the release.
    await expect.poll(async () => (await joint('shin_l')).limit![1]).toBeGreaterThan(0.12);
    const live = (await joint('shin_l')).limit![1];
    await expect.poll(() => field('Slide max').inputValue()).toBe(String(Number(live.toFixed(3))));
    await page.mouse.up();
    const after = (await joint('shin_l')).limit!;
    const moved = after[1] - 0.12, expected = N / pxPerM;
    console.log(`dragged ${N} px along the axis: max ${0.12} → ${after[1]} m (Δ ${moved.toFixed(4)} m; ${expected.toFixed(4)} m by the ends' screen spacing)`);
    expect(after[0]).toBe(-0.05);
    expect(Math.abs(moved - expected)).toBeLessThan(0.15 * expected);
    expect(await hook(page, 'undoDepth')).toBe(depth + 1);
    expect(await authoring(page, 'dragging')).toBe(false);
    // The handle ends under the cursor (the pointer stayed on the drawn axis).
    await nextFrames(page);
    const end = (await authoring(page, 'slideHandleScreen', 'shin_l', 'slide', 1))!;
    expect(Math.hypot(end.x - (hi!.x + dir.x * N), end.y - (hi!.y + dir.y * N))).toBeLessThan(1.5);
    expect(await hook(page, 'selection')).toEqual({ kind: 'joint', name: 'shin_l' });

    // Escape mid-drag: back to `after`, no undo step.
    await page.mouse.move(end.x + dir.x, end.y + dir.y);
    await page.mouse.move(end.x, end.y);
    await page.mouse.down();
    for (let i = 1; i <= 5; i++) await page.mouse.move(end.x + dir.x * 4 * i, end.y + dir.y * 4 * i);
    await expect.poll(async () => (await joint('shin_l')).limit![1]).toBeGreaterThan(after[1]);
    await page.keyboard.press('Escape');
    expect(await authoring(page, 'dragging')).toBe(false);
    await page.mouse.move(end.x + dir.x * 60, end.y + dir.y * 60);
    await page.mouse.up();
    await nextFrames(page);
    expect((await joint('shin_l')).limit).toEqual(after);
    expect(await hook(page, 'undoDepth')).toBe(depth + 1);
    await expect.poll(() => field('Slide max').inputValue()).toBe(String(Number(after[1].toFixed(3))));

    // Past the min end: the max stops at it, and the inspector's message says why.
    const from = (await authoring(page, 'slideHandleScreen', 'shin_l', 'slide', 1))!;
    const to = (await authoring(page, 'slideHandleScreen', 'shin_l', 'slide', 0))!;
    await page.mouse.move(from.x + dir.x, from.y + dir.y);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + ((to.x - dir.x * 40 - from.x) * i) / 10, from.y + ((to.y - dir.y * 40 - from.y) * i) / 10);
    await page.mouse.up();
    expect((await joint('shin_l')).limit).toEqual([-0.05, -0.05]);
    await expect.poll(() => hook(page, 'status')).toContain('Slide max: min must be ≤ max');
    expect(await hook(page, 'undoDepth')).toBe(depth + 2);

    // Undo takes each drag back, one step each.
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await joint('shin_l')).limit).toEqual(after);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await joint('shin_l')).limit).toEqual([-0.05, 0.12]);
    // The pointer off the handles: the joint gizmo takes presses again.
    await page.mouse.move(5, 300);
    await eventually(() => authoring(page, 'jointGizmoEnabled')).toBe(true);
  });

  it('the planar Y range and the screw travel drag too: slideLimitY along frame Y; the screw angle limit by travel / pitch', async () => {
    const page = app.page;
    const typeSelect = page.getByTestId('joint-inspector').getByRole('combobox', { name: 'Joint type' });
    await typeSelect.selectOption('planar');
    await expect.poll(async () => (await joint('shin_l')).type).toBe('planar');
    await field('Slide Y min').fill('-0.1');
    await field('Slide Y min').press('Enter');
    await field('Slide Y max').fill('0.1');
    await field('Slide Y max').press('Enter');
    await expect.poll(async () => (await joint('shin_l')).slideLimitY).toEqual([-0.1, 0.1]);
    const y = await slideOnScreen('shin_l', 'slideY', 0.2);
    console.log(`planar Y axis on screen: ${y.span.toFixed(1)} px for 0.2 m`);
    expect(y.span).toBeGreaterThan(15);
    let depth = await hook(page, 'undoDepth');
    await dragAlong(y.lo, y.dir, -20); // the min end, 20 px outward
    const planar = await joint('shin_l');
    const dy = -0.1 - planar.slideLimitY![0], expectY = 20 / y.pxPerM;
    console.log(`planar Y min dragged 20 px: −0.1 → ${planar.slideLimitY![0]} m (Δ ${dy.toFixed(4)} m; ${expectY.toFixed(4)} m by the ends' spacing)`);
    expect(planar.slideLimitY![1]).toBe(0.1);
    expect(Math.abs(dy - expectY)).toBeLessThan(0.15 * expectY);
    expect(await hook(page, 'undoDepth')).toBe(depth + 1);
    await expect.poll(() => field('Slide Y min').inputValue()).toBe(String(Number(planar.slideLimitY![0].toFixed(3))));

    // Screw, pitch 0.1 m/rad and the default ±1.5 rad: travel ±0.15 m; 10 px more travel is Δ/0.1 rad more angle.
    await typeSelect.selectOption('screw');
    await expect.poll(async () => (await joint('shin_l')).type).toBe('screw');
    await field('Screw pitch').fill('0.1');
    await field('Screw pitch').press('Enter');
    await expect.poll(async () => (await joint('shin_l')).pitch).toBe(0.1);
    const limit0 = (await joint('shin_l')).limit!;
    const sc = await slideOnScreen('shin_l', 'slide', 0.1 * (limit0[1] - limit0[0]));
    depth = await hook(page, 'undoDepth');
    await dragAlong(sc.hi, sc.dir, 10);
    const limit1 = (await joint('shin_l')).limit!;
    const dTravel = 0.1 * (limit1[1] - limit0[1]), expectT = 10 / sc.pxPerM;
    console.log(`screw travel max dragged 10 px: angle max ${limit0[1]} → ${limit1[1]} rad (travel Δ ${dTravel.toFixed(4)} m; ${expectT.toFixed(4)} m by the ends' spacing)`);
    expect(limit1[0]).toBe(limit0[0]);
    expect(Math.abs(dTravel - expectT)).toBeLessThan(0.15 * expectT);
    expect(await hook(page, 'undoDepth')).toBe(depth + 1);
    await expect.poll(async () => (await drawn('shin_l', 'slide'))?.max).toBeCloseTo(0.1 * limit1[1], 6);
  });
});
