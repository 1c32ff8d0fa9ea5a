/**
 * The articulated solver in the editor (issue 12 item 1): the toolbar's Rigid | Articulated | Particle
 * switch runs the open creature (the Armed Mine) in joint coordinates through the same preview — Play fills
 * the timeline from the worker, the creature moves, and the recording differs from the rigid one; back on
 * Rigid the rigid recording returns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, type App } from './harness/app';
import { maxDiff } from './harness/poses';
import { hookCaller } from './harness/hook';
import type { PreviewTestHook } from '../../renderer/src/preview/testHook';
import type { ParticleTestHook } from '../../renderer/src/preview/particleTestHook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

const preview = hookCaller<PreviewTestHook>('__marionettePreview');
const particles = hookCaller<ParticleTestHook>('__marionetteParticles');


describe('articulated solver in the editor', () => {
  it('switching to Articulated and playing fills the timeline; the creature moves, differently from Rigid', async () => {
    const page = app.page;
    await expect.poll(() => preview(page, 'recorded'), { timeout: 20_000 }).toBeGreaterThan(120);
    expect(await particles(page, 'solver')).toBe('rigid');
    const rigid120 = await preview(page, 'recordedBodies', 120);
    expect(rigid120).not.toBeNull();

    const radio = page.getByRole('radio', { name: 'Articulated', exact: true });
    await radio.click();
    await expect.poll(() => radio.getAttribute('aria-checked')).toBe('true');
    expect(await particles(page, 'solver')).toBe('articulated');
    // Bodies, not particles: the rig's own preview, re-simulated from frame 0 under the new solver.
    expect(await particles(page, 'active')).toBe(false);
    await page.getByRole('toolbar').getByRole('button', { name: 'Play preview' }).click();
    await expect.poll(() => preview(page, 'recorded'), { timeout: 60_000 }).toBeGreaterThanOrEqual(600);
    expect(await preview(page, 'problem')).toBeNull();
    await expect.poll(() => preview(page, 'playhead'), { timeout: 20_000 }).toBeGreaterThan(20);
    await page.keyboard.press('Space');
    const f0 = await preview(page, 'recordedBodies', 0), f600 = await preview(page, 'recordedBodies', 600);
    const art120 = await preview(page, 'recordedBodies', 120);
    // The mine crawled: its body is well away from where frame 0 had it after 10 s.
    expect(maxDiff(f600, f0, false)).toBeGreaterThan(0.3);
    // A different solver: the same creature's frame 120 is not the rigid one.
    expect(maxDiff(art120, rigid120, false)).toBeGreaterThan(1e-4);

    await page.getByRole('radio', { name: 'Rigid', exact: true }).click();
    await expect.poll(() => particles(page, 'solver')).toBe('rigid');
    await expect.poll(async () => maxDiff(await preview(page, 'recordedBodies', 120), rigid120), { timeout: 60_000 }).toBeLessThanOrEqual(1e-9);
  });
});
