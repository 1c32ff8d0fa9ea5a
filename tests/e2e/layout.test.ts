/**
 * The editor's layout at common window sizes, and the particle-mode view.
 *  - Toolbar: at 1440×900, 1280×720, 1024×700 and 900×700 every control drawn in the bar lies inside it,
 *    none overlaps another, none is squeezed below its own content (labels whole); at 1024 and up every
 *    group is in the bar (other e2e tests click toolbar buttons at 1280×800), at 900 the last groups are in
 *    the overflow "»" menu, which opens inside the window and whose toggles work and leave it open.
 *  - Timeline + plots: at 1280×720 with the plots open the viewport keeps ≥ 55 % of the window height; the
 *    split bar drags (and moves with the keyboard) within its limits, is remembered across a reload, and
 *    collapsing the plots gives their height back to the viewport.
 *  - Particle mode: the rig's body shapes (drawn at the rest pose) are not drawn; camera Follow carries the
 *    camera with the root particle; a creature opened after a particle example gets its rig's default
 *    timeline length, however long the example's timeline had grown.
 * With MARIONETTE_SCREENSHOTS=DIR set, the views are saved there (editor.png is the README's startup view).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchApp, MENU, type App, openExample } from './harness/app';
import { hook, hookCaller } from './harness/hook';
import type { PreviewTestHook } from '../../renderer/src/preview/testHook';
import type { ParticleTestHook } from '../../renderer/src/preview/particleTestHook';
import type { AuthoringTestHook } from '../../renderer/src/authoring/testHook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

const poll = <T>(fn: () => Promise<T>, timeout = 30_000) => expect.poll(fn, { timeout, interval: 100 });
const shots = process.env.MARIONETTE_SCREENSHOTS;
const shot = async (page: Page, name: string) => { if (shots) await page.screenshot({ path: path.join(shots, name) }); };

const preview = hookCaller<PreviewTestHook>('__marionettePreview');
const particles = hookCaller<ParticleTestHook>('__marionetteParticles');
const authoring = hookCaller<AuthoringTestHook>('__marionetteAuthoring');

const ALL_GROUPS = ['file', 'history', 'view', 'solver', 'playback', 'overlays', 'rig', 'poke'];

interface ToolbarReport { groups: string[]; problems: string[] }

/**
 * What is wrong with the toolbar as drawn: controls outside the bar (or the window), controls overlapping,
 * a control narrower than its content (squeezed: its label cut), a label clipped inside its button.
 */
function toolbarReport(page: Page): Promise<ToolbarReport> {
  return page.evaluate(() => {
    const bar = document.querySelector<HTMLElement>('[role="toolbar"]')!;
    const b = bar.getBoundingClientRect();
    const problems: string[] = [];
    const controls = Array.from(bar.querySelectorAll<HTMLElement>('.toolbar-row button, .toolbar-row label'))
      .filter((e) => e.getClientRects().length > 0)
      .map((e) => ({ name: e.getAttribute('aria-label') ?? e.textContent ?? '?', e, r: e.getBoundingClientRect() }));
    for (const c of controls) {
      if (c.r.left < b.left - 0.5 || c.r.right > b.right + 0.5 || c.r.right > window.innerWidth + 0.5) problems.push(`${c.name} sticks out of the toolbar (${c.r.left.toFixed(0)}–${c.r.right.toFixed(0)} of ${b.width.toFixed(0)} px)`);
      if (c.r.top < b.top - 0.5 || c.r.bottom > b.bottom + 0.5) problems.push(`${c.name} is cut at the top or bottom`);
      if (c.e.scrollWidth > c.e.clientWidth + 1) problems.push(`${c.name} is squeezed (${c.e.clientWidth} px for ${c.e.scrollWidth} px of content)`);
      for (const t of Array.from(c.e.querySelectorAll<HTMLElement>('.tool-text, .num'))) {
        const r = t.getBoundingClientRect();
        if (t.getClientRects().length > 0 && (r.left < c.r.left - 0.5 || r.right > c.r.right + 0.5)) problems.push(`${c.name}: label "${t.textContent}" does not fit its control`);
      }
    }
    for (let i = 0; i < controls.length; i++) {
      for (let j = i + 1; j < controls.length; j++) {
        const p = controls[i]!, q = controls[j]!;
        if (p.e.contains(q.e) || q.e.contains(p.e)) continue;
        const x = Math.min(p.r.right, q.r.right) - Math.max(p.r.left, q.r.left), y = Math.min(p.r.bottom, q.r.bottom) - Math.max(p.r.top, q.r.top);
        if (x > 0.5 && y > 0.5) problems.push(`${p.name} overlaps ${q.name} by ${x.toFixed(1)} px`);
      }
    }
    const groups = Array.from(bar.querySelectorAll<HTMLElement>('.toolbar-row > [data-group]')).map((g) => g.dataset.group!);
    return { groups, problems };
  });
}

async function resize(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  // The toolbar refits on the resize observer's next callback; two animation frames cover it.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function expectToolbarFits(page: Page, allInBar: boolean): Promise<ToolbarReport> {
  await poll(() => toolbarReport(page).then((r) => r.problems), 5_000).toEqual([]);
  const report = await toolbarReport(page);
  if (allInBar) expect(report.groups).toEqual(ALL_GROUPS);
  else expect(report.groups.length).toBeLessThan(ALL_GROUPS.length);
  expect(await page.getByRole('toolbar').getByRole('button', { name: 'More tools', exact: true }).count()).toBe(allInBar ? 0 : 1);
  return report;
}

const toolbarButton = (page: Page, name: string) => page.getByRole('toolbar').getByRole('button', { name, exact: true });

describe('editor layout', () => {
  it('startup (Armed Mine): the toolbar fits at 1440, 1280, 1024 and 900 px; the last groups overflow into » at 900', async () => {
    const page = app.page;
    await page.getByRole('button', { name: 'Dismiss' }).first().click().catch(() => undefined);
    for (const [w, h] of [[1440, 900], [1280, 720]] as const) {
      await resize(page, w, h);
      await expectToolbarFits(page, true);
      await shot(page, `layout-${w}x${h}.png`);
    }
    await resize(page, 1024, 700);
    await expectToolbarFits(page, true);
    await shot(page, 'layout-1024x700.png');
    await resize(page, 900, 700);
    const narrow = await expectToolbarFits(page, false);
    // The groups leave from the end: what is in the bar is a prefix of the display order.
    expect(narrow.groups).toEqual(ALL_GROUPS.slice(0, narrow.groups.length));

    // Widening again brings every group back (the fit restarts from full labels).
    await resize(page, 1280, 800);
    await expectToolbarFits(page, true);

    if (shots) {
      // README: the startup view with the forearm bone selected.
      await resize(page, 1440, 860);
      await page.locator('[data-bone="forearm"]').click();
      await poll(() => hook(page, 'selection')).toEqual({ kind: 'bone', name: 'forearm' });
      await page.waitForTimeout(1500);
      await shot(page, 'editor.png');
      await resize(page, 1280, 800);
    }
  });

  it('timeline + plots: a resizable split under the viewport (drag, keys), remembered, given back when the plots collapse', async () => {
    const page = app.page;
    await resize(page, 1280, 720);
    const viewportHeight = async () => (await page.getByTestId('viewport').boundingBox())!.height;
    const dockHeight = async () => (await page.getByTestId('bottom-dock').boundingBox())!.height;
    const splitter = page.getByRole('separator', { name: 'Resize the timeline and plots', exact: true });
    await poll(() => page.getByRole('button', { name: 'Collapse plots', exact: true }).count()).toBe(1);

    // Plots open at 1280×720: the viewport keeps at least 55 % of the window's height.
    const v0 = await viewportHeight(), d0 = await dockHeight();
    expect(v0).toBeGreaterThanOrEqual(0.55 * 720);
    expect(d0).toBeGreaterThan(104 + 24 + 40);
    await shot(page, 'layout-1280x720-plots.png');

    // Drag the bar up by 120 px: the bottom area grows by 120, the viewport shrinks by as much.
    const bar = (await splitter.boundingBox())!;
    const x = bar.x + bar.width / 2, y = bar.y + bar.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x, y - 60, { steps: 4 });
    await page.mouse.move(x, y - 120, { steps: 4 });
    await page.mouse.up();
    await poll(dockHeight).toBeCloseTo(d0 + 120, 0);
    expect(await viewportHeight()).toBeCloseTo(v0 - 120, 0);
    // Dragging far down stops at the bottom area's minimum; far up, the viewport keeps its minimum.
    const b2 = (await splitter.boundingBox())!;
    await page.mouse.move(x, b2.y + 2);
    await page.mouse.down();
    await page.mouse.move(x, 5, { steps: 6 });
    await page.mouse.up();
    expect(await viewportHeight()).toBeGreaterThanOrEqual(159);
    expect(Number(await splitter.getAttribute('aria-valuenow'))).toBe(Number(await splitter.getAttribute('aria-valuemax')));

    // From the keyboard: Home takes the smallest bottom area, each Arrow Up grows it by 16 px.
    await splitter.focus();
    await page.keyboard.press('Home');
    const min = Number(await splitter.getAttribute('aria-valuemin'));
    await poll(dockHeight).toBeCloseTo(min, 0);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await poll(dockHeight).toBeCloseTo(min + 32, 0);
    expect(Number(await splitter.getAttribute('aria-valuenow'))).toBe(min + 32);
    const vKeyed = await viewportHeight();

    // Collapsing the plots gives their height back to the viewport; expanding restores the split.
    await page.getByRole('button', { name: 'Collapse plots', exact: true }).click();
    await poll(() => splitter.count()).toBe(0);
    const collapsed = await dockHeight();
    expect(collapsed).toBeLessThan(104 + 24 + 8);
    expect(await viewportHeight()).toBeCloseTo(vKeyed + (min + 32) + 4 - collapsed, 0);
    await page.getByRole('button', { name: 'Expand plots', exact: true }).click();
    await poll(dockHeight).toBeCloseTo(min + 32, 0);

    // Remembered: after a reload the split is where it was left.
    await app.reload();
    await resize(page, 1280, 720);
    await poll(dockHeight).toBeCloseTo(min + 32, 0);
    // Back to the default for the tests that follow (the default is the stored value's absence).
    await page.evaluate(() => localStorage.removeItem('marionette.layout'));
    await app.reload();
    await resize(page, 1280, 800);
    await poll(dockHeight).toBeCloseTo(Math.round(0.32 * 800), 0);
  });

  it('a creature opened after a particle example gets its rig\'s default timeline, however far the example grew', async () => {
    const page = app.page;
    await openExample(app, 'Ragdoll', 'ragdoll', 'assets/examples/ragdoll.json');
    await poll(() => particles(page, 'scene')).toBe('ragdoll.json');
    const scene = await preview(page, 'duration');
    // The example's own length: 10 s at 1/120 s.
    expect(scene.frames).toBe(1200);
    // Playing past the end grows the timeline by 10 s.
    await authoring(page, 'seek', scene.frames - 2);
    if (!(await preview(page, 'playing'))) await page.keyboard.press('Space');
    await poll(() => preview(page, 'duration').then((d) => d.frames)).toBeGreaterThan(scene.frames);
    await page.keyboard.press('Space');

    await app.pickFiles(MENU.openCreature, [path.resolve('assets/creatures/humanoid.glb')]);
    await poll(async () => (await hook(page, 'creature'))?.fileName).toBe('humanoid.glb');
    await poll(() => particles(page, 'scene')).toBeNull();
    const dt = ((await hook(page, 'document')) as { rig: { simulation: { dt: number } } }).rig.simulation.dt;
    await poll(() => preview(page, 'duration').then((d) => d.frames)).toBe(Math.round(20 / dt));
  });

  it('humanoid with generated bodies: the toolbar fits; at 900 the overflow menu works', async () => {
    const page = app.page;
    if ((await hook(page, 'creature'))?.fileName !== 'humanoid.glb') {
      await app.pickFiles(MENU.openCreature, [path.resolve('assets/creatures/humanoid.glb')]);
      await poll(async () => (await hook(page, 'creature'))?.fileName).toBe('humanoid.glb');
    }
    await toolbarButton(page, 'Generate from skeleton').click();
    await page.getByTestId('generate-dialog').getByRole('button', { name: 'Generate', exact: true }).click();
    await poll(async () => ((await hook(page, 'document')) as { rig: { bodies: unknown[] } }).rig.bodies.length).toBe(13);
    await page.getByRole('button', { name: 'Dismiss' }).first().click().catch(() => undefined);
    await resize(page, 1280, 720);
    await expectToolbarFits(page, true);
    await shot(page, 'layout-humanoid-1280x720.png');

    await resize(page, 1024, 700);
    await expectToolbarFits(page, true);
    await resize(page, 900, 700);
    const narrow = await expectToolbarFits(page, false);
    expect(narrow.groups).not.toContain('poke');
    await toolbarButton(page, 'More tools').click();
    const menu = page.getByRole('toolbar').getByRole('group', { name: 'More tools', exact: true });
    await menu.waitFor();
    // Inside the window, and holding the groups that left the bar (each once).
    const box = (await menu.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(900);
    expect(box.y + box.height).toBeLessThanOrEqual(700);
    const inMenu = await menu.locator('[data-group]').evaluateAll((gs) => gs.map((g) => (g as HTMLElement).dataset.group));
    expect([...narrow.groups, ...inMenu]).toEqual(ALL_GROUPS);
    await shot(page, 'layout-humanoid-900x700-overflow.png');
    // A toggle in the menu works and leaves the menu open; Escape closes it.
    const poke = menu.getByRole('button', { name: 'Poke tool', exact: true });
    await poke.click();
    await poll(() => poke.getAttribute('aria-pressed')).toBe('true');
    await menu.getByRole('button', { name: 'Select tool', exact: true }).click();
    await poll(() => poke.getAttribute('aria-pressed')).toBe('false');
    await page.keyboard.press('Escape');
    await poll(() => menu.count()).toBe(0);
    await resize(page, 1280, 800);
    await expectToolbarFits(page, true);
  });

  it('particle mode: the rig\'s bodies are not drawn; Follow carries the camera with the root particle', async () => {
    const page = app.page;
    await poll(() => authoring(page, 'bodyScreenPosition', 'pelvis')).not.toBeNull();
    await page.getByRole('radio', { name: 'Particle', exact: true }).click();
    await poll(() => particles(page, 'active')).toBe(true);
    await poll(() => authoring(page, 'bodyScreenPosition', 'pelvis')).toBeNull();
    if (await preview(page, 'playing')) await page.keyboard.press('Space');
    if (!(await preview(page, 'follow'))) await page.keyboard.press('c');
    expect(await preview(page, 'follow')).toBe(true);

    const rootAt = async (f: number) => (await particles(page, 'particlesAt', f))!.pelvis!;
    await authoring(page, 'seek', 0);
    await poll(() => particles(page, 'shownIndex')).toBe(0);
    await poll(() => preview(page, 'cameraSettled')).toBe(true);
    const cam0 = (await preview(page, 'cameraPose'))!;
    await poll(() => particles(page, 'recorded')).toBeGreaterThan(150);
    await authoring(page, 'seek', 150);
    await poll(() => particles(page, 'shownIndex')).toBe(150);
    await poll(() => preview(page, 'cameraSettled')).toBe(true);
    const cam1 = (await preview(page, 'cameraPose'))!;
    const r0 = await rootAt(0), r1 = await rootAt(150);
    // The humanoid has collapsed by 2.5 s: its pelvis has moved well over 5 cm.
    expect(Math.hypot(r1[0]! - r0[0]!, r1[1]! - r0[1]!, r1[2]! - r0[2]!)).toBeGreaterThan(0.05);
    // The camera's target and eye moved with the pelvis particle (settled: within 1 mm), keeping the orbit.
    for (let i = 0; i < 3; i++) {
      expect(Math.abs(cam1.target[i]! - cam0.target[i]! - (r1[i]! - r0[i]!))).toBeLessThan(2e-3);
      expect(Math.abs(cam1.position[i]! - cam0.position[i]! - (r1[i]! - r0[i]!))).toBeLessThan(2e-3);
    }
    await shot(page, 'layout-humanoid-particles.png');

    await page.getByRole('radio', { name: 'Rigid', exact: true }).click();
    await poll(() => particles(page, 'active')).toBe(false);
    await poll(() => authoring(page, 'bodyScreenPosition', 'pelvis')).not.toBeNull();
  });
});
