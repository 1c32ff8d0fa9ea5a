/**
 * Issue 6's check, in the production web build: on the humanoid, generate bodies → a body per bone and the
 * joints between them; type a hinge limit → the drawn arc changes (angle read back from its geometry, and
 * pixels); bad input is refused at the field; go limp → the body falls in the preview; Poke-click a body →
 * it moves on the next frames; export → the CLI validates the file; undo the whole sequence → empty rig.
 * Then, on a generated rig, through the inspector: left-side edits (friction, capsule radius, knee limit)
 * mirrored to the right in one undo step (shape positions reflected across X = 0), and one joint's motor
 * copied and pasted to three Ctrl-clicked joints in one step, the other joints untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { MENU, launchApp, openExample, type App } from './harness/app';
import { hook, hookCaller, nextFrames } from './harness/hook';
import type { AuthoringTestHook } from '../../renderer/src/authoring/testHook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 120_000);
afterAll(async () => { await app?.close(); });

const authoring = hookCaller<AuthoringTestHook>('__marionetteAuthoring');

interface Doc { rig: { bodies: { name: string; bone: string }[]; joints: { name: string; type: string; bodyA: string; bodyB: string; limit?: [number, number] | null }[] } }
const rig = async () => ((await hook(app.page, 'document')) as Doc).rig;

/** Snapshot the canvas pixels into the page, then count pixels that differ from it by > 24/255. */
async function canvasSnapshot(page: Page): Promise<void> {
  await page.evaluate(() => {
    const c = document.querySelector<HTMLCanvasElement>('[data-testid="viewport"] canvas')!;
    const c2 = document.createElement('canvas'); c2.width = c.width; c2.height = c.height;
    const ctx = c2.getContext('2d')!; ctx.drawImage(c, 0, 0);
    (window as unknown as { __snap: Uint8ClampedArray }).__snap = ctx.getImageData(0, 0, c.width, c.height).data;
  });
}
function changedPixels(page: Page): Promise<number> {
  return page.evaluate(() => {
    const before = (window as unknown as { __snap: Uint8ClampedArray }).__snap;
    const c = document.querySelector<HTMLCanvasElement>('[data-testid="viewport"] canvas')!;
    const c2 = document.createElement('canvas'); c2.width = c.width; c2.height = c.height;
    const ctx = c2.getContext('2d')!; ctx.drawImage(c, 0, 0);
    const now = ctx.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < now.length; i += 4) {
      if (Math.abs(now[i]! - before[i]!) + Math.abs(now[i + 1]! - before[i + 1]!) + Math.abs(now[i + 2]! - before[i + 2]!) > 24) n++;
    }
    return n;
  });
}

let powered: number[] = [];
const toolbarButton = (name: string) => app.page.getByRole('toolbar').getByRole('button', { name, exact: true });
const field = (label: string) => app.page.getByTestId('inspector').getByRole('textbox', { name: label, exact: true });

describe('authoring on the humanoid', () => {
  it('opens the humanoid and generates a body per bone with joints between them (one undo step)', async () => {
    // The creature file itself (not the example project, which ships with its tuned rig): an empty rig.
    await app.pickFiles(MENU.openCreature, [path.resolve('assets/creatures/humanoid.glb')]);
    await expect.poll(async () => (await hook(app.page, 'creature'))?.fileName, { timeout: 30_000 }).toBe('humanoid.glb');
    expect((await rig()).bodies).toEqual([]);
    const depth0 = await hook(app.page, 'undoDepth');

    await toolbarButton('Generate from skeleton').click();
    await app.page.getByTestId('generate-dialog').getByRole('button', { name: 'Generate', exact: true }).click();
    await expect.poll(async () => (await rig()).bodies.length).toBe(13);

    const r = await rig();
    const bones = (await hook(app.page, 'creature'))!.bones;
    // A body for each of the 13 bones, and a joint from each body to its parent bone's body.
    expect(r.bodies.map((b) => b.bone).sort()).toEqual(bones.map((b) => b.name).sort());
    expect(r.joints).toHaveLength(12);
    const parentOf = new Map(bones.map((b) => [b.name, b.parent]));
    for (const j of r.joints) expect(parentOf.get(j.bodyB)).toBe(j.bodyA);
    expect(await hook(app.page, 'undoDepth')).toBe(depth0 + 1);

    const bodyRows = app.page.getByTestId('outliner-bodies').getByRole('treeitem');
    const jointRows = app.page.getByTestId('outliner-joints').getByRole('treeitem');
    expect(await bodyRows.count()).toBe(13);
    expect(await jointRows.count()).toBe(12);
    expect(await app.page.getByTestId('outliner-bodies').locator('[data-body="foot_l"]').count()).toBe(1);
    expect(await app.page.getByTestId('outliner-joints').locator('[data-joint="shin_l"]').textContent()).toContain('hinge');
  });

  it('typing a hinge limit changes the drawn arc; bad input is refused at the field', async () => {
    await toolbarButton('Show mesh').click();
    await app.page.getByTestId('outliner-joints').locator('[data-joint="shin_l"]').click();
    await expect.poll(() => app.page.getByTestId('joint-inspector').count()).toBe(1);
    const arc = async () => (await authoring(app.page, 'limits')).find((l) => l.joint === 'shin_l' && l.kind === 'hinge')!;
    await expect.poll(async () => (await arc())?.selected).toBe(true);
    const before = await arc();
    const limitBefore = (await rig()).joints.find((j) => j.name === 'shin_l')!.limit!;
    expect(before.min).toBeCloseTo(limitBefore[0], 3);
    expect(before.max).toBeCloseTo(limitBefore[1], 3);
    await nextFrames(app.page);
    await canvasSnapshot(app.page);

    await field('Hinge max').fill('20');
    await field('Hinge max').press('Enter');
    await expect.poll(async () => (await rig()).joints.find((j) => j.name === 'shin_l')!.limit![1]).toBeCloseTo((20 * Math.PI) / 180, 6);
    await expect.poll(async () => (await arc()).max).toBeCloseTo((20 * Math.PI) / 180, 3);
    expect((await arc()).min).toBeCloseTo(limitBefore[0], 3);
    await nextFrames(app.page);
    // The arc shrank from about ±143° to [−143°, 20°]: hundreds of its pixels are gone.
    expect(await changedPixels(app.page)).toBeGreaterThan(200);

    // One Joints switch (turned on by Generate) draws the axes and limits, editing or previewing: the
    // toolbar has no second, limits-only toggle; off, the arcs leave the screen; on, they are back.
    const jointsToggle = toolbarButton('Show joints and limits');
    expect(await app.page.getByRole('toolbar').getByRole('button', { name: /limits|joints/i }).count()).toBe(1);
    expect(await jointsToggle.getAttribute('aria-pressed')).toBe('true');
    expect(await authoring(app.page, 'jointsShown')).toBe(true);
    await nextFrames(app.page);
    await canvasSnapshot(app.page);
    await jointsToggle.click();
    await expect.poll(() => authoring(app.page, 'jointsShown')).toBe(false);
    await nextFrames(app.page);
    expect(await changedPixels(app.page)).toBeGreaterThan(200);
    await jointsToggle.click();
    await expect.poll(() => authoring(app.page, 'jointsShown')).toBe(true);

    // Text in a number field and min > max: refused with a message at the field, document unchanged.
    const depth = await hook(app.page, 'undoDepth');
    await field('Hinge max').fill('abc');
    await field('Hinge max').press('Enter');
    await expect.poll(() => app.page.locator('[data-field="limit-max"] [role="alert"]').textContent()).toContain('must be a number');
    await field('Hinge min').fill('40');
    await field('Hinge min').press('Enter');
    await expect.poll(() => app.page.locator('[data-field="limit-min"] [role="alert"]').textContent()).toContain('min must be ≤ max');
    expect(await hook(app.page, 'undoDepth')).toBe(depth);
    expect((await rig()).joints.find((j) => j.name === 'shin_l')!.limit![1]).toBeCloseTo((20 * Math.PI) / 180, 6);
    await field('Hinge min').press('Escape');
    await field('Hinge max').focus();
    await field('Hinge max').press('Escape');
    await toolbarButton('Show mesh').click();
  });

  it('a limp creature falls in the preview', async () => {
    // Powered: the recording keeps the pelvis up for the first second.
    await toolbarButton('Power on').click();
    // Read the series in the poll itself: the Power on input cuts the recording back (asynchronously, from
    // the worker), so a length checked in one call and a series read in the next can disagree.
    await expect.poll(async () => (powered = await authoring(app.page, 'series', 'pelvis', 'height')).length, { timeout: 60_000 }).toBeGreaterThan(90);
    await toolbarButton('Go limp').click();
    await expect.poll(async () => {
      const h = await authoring(app.page, 'series', 'pelvis', 'height');
      return h.length > 90 ? powered[90]! - h[90]! : 0;
    }, { timeout: 60_000 }).toBeGreaterThan(0.1);
    const limp = await authoring(app.page, 'series', 'pelvis', 'height');
    expect(limp[90]!).toBeLessThan(limp[0]! - 0.1);
    // On screen: the pelvis body drawn at frame 90 is lower than at frame 0.
    const y0 = (await authoring(app.page, 'bodyScreenPosition', 'pelvis'))!.y;
    await authoring(app.page, 'seek', 90);
    await expect.poll(async () => (await authoring(app.page, 'bodyScreenPosition', 'pelvis'))!.y - y0).toBeGreaterThan(10);
    await authoring(app.page, 'seek', 0);
    await toolbarButton('Power on').click();
    // Back to the powered recording before the next test compares against it.
    await expect.poll(async () => {
      const h = await authoring(app.page, 'series', 'pelvis', 'height');
      return h.length > 90 ? Math.abs(h[90]! - powered[90]!) : 1;
    }, { timeout: 60_000 }).toBeLessThan(1e-9);
  });

  it('a Poke click on a body applies an impulse: it moves on the next frames', async () => {
    await expect.poll(() => authoring(app.page, 'recorded'), { timeout: 60_000 }).toBeGreaterThan(30);
    await expect.poll(() => authoring(app.page, 'shownFrame')).toBe(0);
    const before = await authoring(app.page, 'series', 'head', 'p.x');
    const beforeZ = await authoring(app.page, 'series', 'head', 'p.z');
    await toolbarButton('Poke tool').click();
    const head = (await authoring(app.page, 'bodyScreenPosition', 'head'))!;
    expect(head).not.toBeNull();
    await app.page.mouse.click(head.x, head.y);
    await expect.poll(async () => {
      const x = await authoring(app.page, 'series', 'head', 'p.x');
      const z = await authoring(app.page, 'series', 'head', 'p.z');
      return x.length > 20 ? Math.hypot(x[20]! - before[20]!, z[20]! - beforeZ[20]!) : 0;
    }, { timeout: 60_000 }).toBeGreaterThan(0.02);
    await toolbarButton('Select tool').click();
  });

  it('exports a rig the CLI validates, then undo takes the document back to the empty rig', async () => {
    const file = path.join(app.tmp, 'humanoid.rig.json');
    const [download] = await Promise.all([
      app.page.waitForEvent('download'),
      (async () => {
        await app.page.getByRole('menubar').getByRole('menuitem', { name: 'File', exact: true }).click();
        await app.page.getByRole('menu').getByRole('menuitem', { name: 'Export', exact: true }).hover();
        await app.page.getByRole('menu').getByRole('menuitem', { name: 'Rig JSON…', exact: true }).click();
      })(),
    ]);
    await download.saveAs(file);
    const cli = spawnSync(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'cli/main.ts', 'validate', file], { encoding: 'utf8' });
    expect(cli.stderr + cli.stdout).not.toMatch(/error/i);
    expect(cli.status).toBe(0);

    // Generate + the limit edit are the document's history since opening; the preview inputs are not.
    await app.page.locator('body').click({ position: { x: 5, y: 5 } });
    await app.page.keyboard.press('Control+z');
    await expect.poll(async () => (await rig()).joints.find((j) => j.name === 'shin_l')?.limit?.[1]).not.toBeCloseTo((20 * Math.PI) / 180, 3);
    await app.page.keyboard.press('Control+z');
    await expect.poll(async () => (await rig()).bodies.length).toBe(0);
    expect((await rig()).joints).toEqual([]);
    expect(await hook(app.page, 'undoDepth')).toBe(0);
    expect(await app.page.getByTestId('outliner-bodies').getByRole('treeitem').count()).toBe(0);
  });
});

interface Shape { type: string; position: number[]; radius?: number }
interface Motor { mode: string; maxTorque: number; errorReduction: number; stiffness: number; damping: number; maxSpeed?: number; target: { source: string; clip?: string } }
interface FullDoc {
  rig: {
    bodies: { name: string; bone: string; material: { friction: number }; shapes: Shape[] }[];
    joints: { name: string; type: string; limit?: [number, number] | null; motor: Motor }[];
  };
}
const fullRig = async () => ((await hook(app.page, 'document')) as FullDoc).rig;
const bodyOf = async (name: string) => (await fullRig()).bodies.find((b) => b.name === name)!;
const jointOf = async (name: string) => (await fullRig()).joints.find((j) => j.name === name)!;
const bodyRow = (name: string) => app.page.getByTestId('outliner-bodies').locator(`[data-body="${name}"]`);
const jointRow = (name: string) => app.page.getByTestId('outliner-joints').locator(`[data-joint="${name}"]`);
const commit = async (label: string, value: string) => {
  await field(label).fill(value);
  await field(label).press('Enter');
};
const DEG = Math.PI / 180;

describe('symmetry and motor copy/paste on the humanoid, through the inspector', () => {
  it('generates the rig again (the previous block undid it)', async () => {
    if ((await rig()).bodies.length === 0) {
      await toolbarButton('Generate from skeleton').click();
      await app.page.getByTestId('generate-dialog').getByRole('button', { name: 'Generate', exact: true }).click();
    }
    await expect.poll(async () => (await rig()).bodies.length, { timeout: 30_000 }).toBe(13);
  });

  it('edits on the left arm and knee, mirrored to the right in one step: material, shape size and position, hinge limit', async () => {
    // Left side: the upper arm's friction and capsule radius, the left knee's hinge max.
    await bodyRow('upper_arm_l').click();
    await expect.poll(() => app.page.getByTestId('body-inspector').count()).toBe(1);
    await commit('Friction', '0.87');
    await expect.poll(async () => (await bodyOf('upper_arm_l')).material.friction).toBeCloseTo(0.87, 9);
    await commit('Radius', '0.071');
    await expect.poll(async () => (await bodyOf('upper_arm_l')).shapes[0]!.radius).toBeCloseTo(0.071, 9);
    await jointRow('shin_l').click();
    await expect.poll(() => app.page.getByTestId('joint-inspector').count()).toBe(1);
    await commit('Hinge max', '12.5');
    await expect.poll(async () => (await jointOf('shin_l')).limit![1]).toBeCloseTo(12.5 * DEG, 6);

    // The right side does not have them yet.
    const rightBefore = await bodyOf('upper_arm_r');
    expect(rightBefore.material.friction).not.toBeCloseTo(0.87, 3);
    expect(rightBefore.shapes[0]!.radius).not.toBeCloseTo(0.071, 4);
    expect((await jointOf('shin_r')).limit![1]).not.toBeCloseTo(12.5 * DEG, 4);
    const depth = await hook(app.page, 'undoDepth');

    await bodyRow('upper_arm_l').click();
    await app.page.getByTestId('body-inspector').getByRole('button', { name: 'Mirror left → right', exact: true }).click();
    await expect.poll(async () => (await bodyOf('upper_arm_r')).material.friction).toBeCloseTo(0.87, 9);
    const left = await bodyOf('upper_arm_l'), right = await bodyOf('upper_arm_r');
    expect(right.bone).toBe('upper_arm_r');
    expect(right.shapes[0]!.radius).toBeCloseTo(0.071, 9);
    // The shape sits at the mirror image of the left one across the X = 0 plane (its bone-local x negated;
    // stored to the millimetre).
    expect(right.shapes[0]!.position[0]).toBeCloseTo(-left.shapes[0]!.position[0]!, 3);
    expect(right.shapes[0]!.position[1]).toBeCloseTo(left.shapes[0]!.position[1]!, 3);
    expect(right.shapes[0]!.position[2]).toBeCloseTo(left.shapes[0]!.position[2]!, 3);
    // Mirrored joint frames keep each angle's sense, so the knee's limits copy over unchanged.
    expect((await jointOf('shin_r')).limit).toEqual((await jointOf('shin_l')).limit);
    // One undo step, and undo takes the right side back.
    expect(await hook(app.page, 'undoDepth')).toBe(depth + 1);
    await app.page.locator('body').click({ position: { x: 5, y: 5 } });
    await app.page.keyboard.press('Control+z');
    await expect.poll(async () => (await bodyOf('upper_arm_r')).material.friction).toBeCloseTo(rightBefore.material.friction, 9);
    expect((await bodyOf('upper_arm_r')).shapes[0]!.radius).toBeCloseTo(rightBefore.shapes[0]!.radius!, 9);
    await app.page.keyboard.press('Control+Shift+z');
    await expect.poll(async () => (await bodyOf('upper_arm_r')).material.friction).toBeCloseTo(0.87, 9);
  });

  it('copies one joint\'s motor and pastes it to three Ctrl-clicked joints in one step; the others keep theirs', async () => {
    // A distinctive motor on the left elbow: its own torque limit and error reduction, following the
    // creature's "wave" clip.
    await jointRow('forearm_l').click();
    const inspector = app.page.getByTestId('joint-inspector');
    await expect.poll(() => inspector.count()).toBe(1);
    await commit('Max torque', '77');
    await expect.poll(async () => (await jointOf('forearm_l')).motor.maxTorque).toBe(77);
    // Generated motors are PD; this one becomes a position drive with its own error reduction.
    await inspector.getByRole('combobox', { name: 'Motor mode', exact: true }).selectOption('position');
    await expect.poll(async () => (await jointOf('forearm_l')).motor.mode).toBe('position');
    await commit('Error reduction', '0.35');
    await expect.poll(async () => (await jointOf('forearm_l')).motor.errorReduction).toBe(0.35);
    // Its speed bound (motor.maxSpeed, 50 rad/s when absent): shown as 50, set to 40, pasted with the rest.
    await expect.poll(() => field('Max speed').inputValue()).toMatch(/^50(\.0+)?$/);
    await commit('Max speed', '40');
    await expect.poll(async () => (await jointOf('forearm_l')).motor.maxSpeed).toBe(40);
    await inspector.getByRole('combobox', { name: 'Target source', exact: true }).selectOption('animation');
    await expect.poll(async () => (await jointOf('forearm_l')).motor.target.source).toBe('animation');
    await inspector.getByRole('combobox', { name: 'Clip', exact: true }).selectOption('wave');
    await expect.poll(async () => (await jointOf('forearm_l')).motor.target.clip).toBe('wave');
    const source = (await jointOf('forearm_l')).motor;
    await inspector.getByRole('button', { name: 'Copy', exact: true }).click();

    const targets = ['forearm_r', 'shin_l', 'shin_r'];
    const untouched = ['spine', 'head', 'foot_l'];
    const before = Object.fromEntries(await Promise.all(untouched.map(async (n) => [n, (await jointOf(n)).motor] as const)));
    for (const n of targets) expect((await jointOf(n)).motor).not.toEqual(source);
    await jointRow('forearm_r').click();
    await jointRow('shin_l').click({ modifiers: ['Control'] });
    await jointRow('shin_r').click({ modifiers: ['Control'] });
    for (const n of targets) await expect.poll(() => jointRow(n).getAttribute('aria-selected')).toBe('true');
    const depth = await hook(app.page, 'undoDepth');
    await inspector.getByRole('button', { name: 'Paste to 3 joints', exact: true }).click();

    await expect.poll(async () => (await jointOf('shin_r')).motor).toEqual(source);
    for (const n of targets) expect((await jointOf(n)).motor).toEqual(source);
    for (const n of untouched) expect((await jointOf(n)).motor).toEqual(before[n]);
    expect((await jointOf('forearm_l')).motor).toEqual(source);
    expect(await hook(app.page, 'undoDepth')).toBe(depth + 1);
    // The inspector of the primary target shows the pasted motor.
    await expect.poll(() => field('Max torque').inputValue()).toMatch(/^77(\.0+)?$/);
  });

  it('switching a position motor with no gains to PD fills in starting gains (the Stiff preset\'s response) in one undo step', async () => {
    // Generated motors are PD already: the Armed Mine's shipped rig has position drives without gains.
    await openExample(app, 'armed-mine', 'armed-mine');
    const discard = app.page.getByTestId('prompt').getByRole('button', { name: "Don't save", exact: true });
    await expect.poll(async () => {
      if (await discard.isVisible().catch(() => false)) await discard.click();
      return (await hook(app.page, 'creature'))?.fileName;
    }, { timeout: 30_000 }).toBe('armed-mine.glb');
    await jointRow('elbow').click();
    const inspector = app.page.getByTestId('joint-inspector');
    await expect.poll(() => inspector.count()).toBe(1);
    const before = (await jointOf('elbow')).motor;
    expect(before.mode).toBe('position');
    expect([before.stiffness, before.damping]).toEqual([0, 0]);
    const depth = await hook(app.page, 'undoDepth');
    await inspector.getByRole('combobox', { name: 'Motor mode', exact: true }).selectOption('pd');
    await expect.poll(async () => (await jointOf('elbow')).motor.mode).toBe('pd');
    await expect.poll(() => app.page.getByTestId('toast-info').last().textContent()).toContain("elbow from the Stiff preset's response: 7.64 Hz");
    const pd = (await jointOf('elbow')).motor;
    expect(pd.stiffness).toBeGreaterThan(0);
    expect(pd.damping).toBeGreaterThan(0);
    expect(await hook(app.page, 'undoDepth')).toBe(depth + 1);
    // The user sees them: kp and kv in their fields, as 7.64 Hz and ζ = 1 beside them (and a notice, above).
    await expect.poll(async () => Number(await field('Stiffness kp').inputValue())).toBeCloseTo(pd.stiffness, 1);
    expect(Number(await field('Damping kv').inputValue())).toBeCloseTo(pd.damping, 2);
    expect(Number(await field('Natural frequency').inputValue())).toBeCloseTo((0.8 * 60) / (2 * Math.PI), 1);
    expect(Number(await field('Damping ratio').inputValue())).toBeCloseTo(1, 2);
    // One step back: Position, no gains.
    await app.page.locator('body').click({ position: { x: 5, y: 5 } });
    await app.page.keyboard.press('Control+z');
    await expect.poll(async () => (await jointOf('elbow')).motor).toEqual(before);
  });
});
