/**
 * The authoring controls under the particle solver (docs/particles.md), and the switch back to a rigid
 * creature:
 *  - on a particle example (File › Examples › Ragdoll: no rig, no bodies) the toolbar's Go limp / Power on
 *    work — the particle pose drive — with tooltips that name it; the timeline's Key target is disabled,
 *    saying there is no steering under the particle solver;
 *  - on the humanoid under particles the joint inspector's badge reads limp at first (a particle ragdoll
 *    starts limp) and powered after Power on; under Rigid it reads powered;
 *  - opening the humanoid right after a grab on the particle ragdoll raises no page error (uPlot's axes
 *    used to be drawn from a null data array while the preview switched engines).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { MENU, launchApp, type App, openExample } from './harness/app';
import { hook, hookCaller, maxDelta } from './harness/hook';
import type { ParticleTestHook } from '../../renderer/src/preview/particleTestHook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

const particles = hookCaller<ParticleTestHook>('__marionetteParticles');

const toolbarButton = (page: Page, name: string) => page.getByRole('toolbar').getByRole('button', { name, exact: true });
const keyTarget = (page: Page) => page.getByTestId('timeline').getByRole('button', { name: '◆ Key target', exact: true });

const poll = <T>(fn: () => Promise<T>, timeout = 30_000) => expect.poll(fn, { timeout, interval: 100 });

/** Press on a bone of the particle ragdoll, drag it up, hold it at least `frames` frames, release. */
async function grabSpine(page: Page, frames: number): Promise<void> {
  const at = (await particles(page, 'boneScreen', 'spine'))!;
  expect(at).not.toBeNull();
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  await page.mouse.move(at.x + 10, at.y - 10, { steps: 2 });
  await page.mouse.move(at.x + 60, at.y - 150, { steps: 5 });
  // Paused before the press, the grab plays the preview while the mouse is down (as under Rigid): hold
  // until the shown frame is past `frames`, then release (it pauses again).
  await poll(() => particles(page, 'shownIndex')).toBeGreaterThanOrEqual(frames);
  await page.mouse.up();
  await poll(() => particles(page, 'inputKinds')).toEqual(['grab']); // one drag, one input (its path and release inside)
}

describe('particle mode: authoring controls', () => {
  it('opening the humanoid right after a grab on the particle ragdoll raises no page error', async () => {
    const page = app.page;
    await openExample(app, 'Ragdoll', 'ragdoll', 'assets/examples/ragdoll.json');
    await poll(() => particles(page, 'scene')).toBe('ragdoll.json');
    await poll(() => particles(page, 'active')).toBe(true);
    await page.keyboard.press('Home');
    await poll(() => particles(page, 'drawn').then((d) => d.frame)).toBe(0);
    await poll(() => particles(page, 'recorded')).toBeGreaterThan(40);
    app.pageErrors.length = 0;
    await grabSpine(page, 30);
    await poll(() => particles(page, 'current')).toBe(true);

    // File › Open Creature… straight after, then the example list: both load the humanoid under the rigid
    // solver, with its plots.
    await app.pickFiles(MENU.openCreature, [path.resolve('assets/creatures/humanoid.glb')]);
    await poll(async () => (await hook(page, 'creature'))?.fileName).toBe('humanoid.glb');
    await poll(() => particles(page, 'scene')).toBeNull();
    await poll(() => particles(page, 'solver')).toBe('rigid');
    await openExample(app, 'Ragdoll', 'ragdoll', 'assets/examples/ragdoll.json');
    await poll(() => particles(page, 'active')).toBe(true);
    await page.keyboard.press('Home');
    await poll(() => particles(page, 'recorded')).toBeGreaterThan(40);
    await grabSpine(page, 20);
    await openExample(app, 'humanoid', 'humanoid');
    await poll(() => particles(page, 'scene')).toBeNull();
    await poll(() => particles(page, 'active')).toBe(false);
    // The humanoid example has bodies: its creature plots draw once frames are recorded.
    await page.getByRole('toolbar').getByRole('button', { name: 'Play preview', exact: true }).click();
    await poll(() => page.locator('[data-testid="plots"] .plot canvas').count()).toBeGreaterThan(0);
    await poll(() => particles(page, 'recorded'), 60_000).toBeGreaterThan(60);
    await page.getByRole('toolbar').getByRole('button', { name: 'Pause preview', exact: true }).click();
    // The plots' playhead line follows the timeline: at frame 0 on the left edge, further right 30 frames on.
    const lineX = () => page.locator('[data-testid="plots"] [data-testid="plot-playhead"]').first()
      .evaluate((e) => ((e as HTMLElement).style.display === 'none' ? null : e.getBoundingClientRect().left - e.parentElement!.getBoundingClientRect().left));
    await page.keyboard.press('Home');
    await poll(lineX).toBeCloseTo(0, 0);
    for (let i = 0; i < 30; i++) await page.keyboard.press('.');
    await poll(lineX).toBeGreaterThan(2);
    expect(app.pageErrors).toEqual([]);
  });

  it('on a particle example Go limp / Power on drive the particle joints (tooltips say so); Key target is disabled', async () => {
    const page = app.page;
    await openExample(app, 'Ragdoll', 'ragdoll', 'assets/examples/ragdoll.json');
    await poll(() => particles(page, 'scene')).toBe('ragdoll.json');
    await poll(() => particles(page, 'active')).toBe(true);
    await page.keyboard.press('Home');
    await poll(() => particles(page, 'shownIndex')).toBe(0);
    await poll(() => particles(page, 'inputs')).toBe(0);
    await poll(() => particles(page, 'recorded')).toBeGreaterThan(90);
    expect(await hook(page, 'document')).toBeNull();

    const limpButton = toolbarButton(page, 'Go limp'), powerButton = toolbarButton(page, 'Power on');
    expect(await limpButton.isEnabled()).toBe(true);
    expect(await powerButton.isEnabled()).toBe(true);
    expect(await limpButton.getAttribute('title')).toContain('particle pose drive lets go');
    expect(await powerButton.getAttribute('title')).toContain('toward its rest pose');
    expect(`${await limpButton.getAttribute('title')} ${await powerButton.getAttribute('title')}`).not.toMatch(/motor/);
    expect(await keyTarget(page).isDisabled()).toBe(true);
    expect(await keyTarget(page).getAttribute('title')).toMatch(/^No steering under the particle solver/);

    // The ragdoll starts limp: Power on at frame 0 changes its fall; Go limp at the same frame restores it.
    const limp = await particles(page, 'particlesAt', 90);
    await powerButton.click();
    await poll(() => particles(page, 'inputKinds')).toEqual(['limp']);
    await poll(async () => maxDelta(await particles(page, 'particlesAt', 90), limp)).toBeGreaterThan(0.01);
    await limpButton.click();
    await poll(() => particles(page, 'inputKinds')).toEqual(['limp', 'limp']);
    await poll(async () => maxDelta(await particles(page, 'particlesAt', 90), limp)).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });

  it('the joint inspector reads the drive state: limp at first under particles, powered after Power on; powered under Rigid', async () => {
    const page = app.page;
    await openExample(app, 'humanoid', 'humanoid');
    await poll(() => particles(page, 'scene')).toBeNull();
    await page.getByTestId('outliner-joints').locator('[data-joint="shin_l"]').click();
    const badge = page.getByTestId('joint-inspector').getByTestId('joint-drive-state');
    await poll(() => badge.textContent()).toBe('powered');
    expect(await keyTarget(page).isEnabled()).toBe(true);

    await page.getByRole('radio', { name: 'Particle', exact: true }).click();
    await poll(() => particles(page, 'active')).toBe(true);
    await page.keyboard.press('Home');
    await poll(() => particles(page, 'shownIndex')).toBe(0);
    await poll(() => badge.textContent()).toBe('limp');
    expect(await keyTarget(page).isDisabled()).toBe(true);
    const inspectorPower = page.getByTestId('joint-inspector').getByRole('button', { name: 'Power on', exact: true });
    expect(await inspectorPower.isEnabled()).toBe(true);
    await toolbarButton(page, 'Power on').click();
    await poll(() => particles(page, 'inputKinds')).toEqual(['limp']);
    await poll(() => badge.textContent()).toBe('powered');
    expect(await inspectorPower.isDisabled()).toBe(true);

    // Rigid keeps its own inputs (none here): its motors are powered from the start.
    await page.getByRole('radio', { name: 'Rigid', exact: true }).click();
    await poll(() => particles(page, 'active')).toBe(false);
    await poll(() => badge.textContent()).toBe('powered');
    expect(await keyTarget(page).isEnabled()).toBe(true);
    expect(app.pageErrors).toEqual([]);
  });
});
