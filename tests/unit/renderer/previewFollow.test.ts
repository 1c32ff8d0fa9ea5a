/**
 * Camera follow (renderer/src/preview/follow.ts): the followed point is a critically damped spring toward
 * the root body — exact for any display interval, no overshoot, the known 2u/ω lag behind a constant-speed
 * crawl — and the View menu's preview toggles reach the renderer as MenuCommands.
 */
import { describe, expect, it } from 'vitest';
import { createFollowPoint, FOLLOW_OMEGA, followSettled, resetFollowPoint, stepFollowPoint } from '../../../renderer/src/preview/follow';
import { buildMenuTemplate, PREVIEW_OVERLAYS, type MenuContext } from '../../../electron/menuTemplate';
import type { MenuCommand } from '../../../shared/platform';

const d: [number, number, number] = [0, 0, 0];

describe('camera follow point', () => {
  it('starts on the root without moving the camera', () => {
    const f = createFollowPoint();
    stepFollowPoint(f, [3, 0.2, -1], 1 / 60, d);
    expect(d).toEqual([0, 0, 0]);
    expect(f.x).toEqual([3, 0.2, -1]);
    expect(followSettled(f, [3, 0.2, -1])).toBe(true);
  });

  it('matches the closed form e(t) = e₀(1 + ωt)e^(−ωt) after a 1 m jump, whatever the display interval', () => {
    for (const h of [1 / 144, 1 / 60, 0.2, 0.3]) {
      const f = createFollowPoint();
      resetFollowPoint(f, [0, 0, 0]);
      let moved = 0;
      const steps = Math.round(1.2 / h);
      for (let i = 0; i < steps; i++) { stepFollowPoint(f, [1, 0, 0], h, d); moved += d[0]; }
      const t = steps * h, w = FOLLOW_OMEGA;
      expect(f.x[0]).toBeCloseTo(1 - (1 + w * t) * Math.exp(-w * t), 12);
      // The camera was carried by the sum of the deltas: exactly the point's displacement.
      expect(moved).toBeCloseTo(f.x[0], 12);
    }
  });

  it('never overshoots (critical damping) and settles within 1.2 s', () => {
    const f = createFollowPoint();
    resetFollowPoint(f, [0, 0, 0]);
    let max = 0, t = 0;
    while (t < 1.2) { stepFollowPoint(f, [0, 0, 2], 1 / 60, d); max = Math.max(max, f.x[2]); t += 1 / 60; }
    expect(max).toBeLessThanOrEqual(2);
    expect(2 - f.x[2]).toBeLessThan(2 * 0.01);
    for (let i = 0; i < 120; i++) stepFollowPoint(f, [0, 0, 2], 1 / 60, d);
    expect(followSettled(f, [0, 0, 2])).toBe(true);
  });

  it('lags a root moving at constant speed u by 2u/ω (m)', () => {
    const f = createFollowPoint();
    const u = 0.2, h = 1 / 60;
    resetFollowPoint(f, [0, 0, 0]);
    let z = 0;
    for (let i = 0; i < 600; i++) { z += u * h; stepFollowPoint(f, [0, 0, z], h, d); }
    // Discrete steps with the root held during each one: the lag is within one step's travel of 2u/ω.
    expect(Math.abs(z - f.x[2] - (2 * u) / FOLLOW_OMEGA)).toBeLessThan(u * h);
    expect(Math.abs(f.v[2] - u)).toBeLessThan(u * 1e-3);
    expect(followSettled(f, [0, 0, z])).toBe(false);
  });

  it('ignores a non-finite or negative display interval', () => {
    const f = createFollowPoint();
    resetFollowPoint(f, [0, 0, 0]);
    stepFollowPoint(f, [1, 1, 1], Number.NaN, d);
    stepFollowPoint(f, [1, 1, 1], -1, d);
    expect(d).toEqual([0, 0, 0]);
    expect(f.x).toEqual([0, 0, 0]);
  });
});

describe('View menu: preview overlays and follow', () => {
  it('the native menu sends a toggle-overlay command per overlay and toggle-follow', () => {
    const sent: MenuCommand[] = [];
    const ctx: MenuContext = {
      appName: 'Marionette', platform: 'linux', isDev: false, recent: [], examples: [], hasDocumentation: false,
      send: (c) => sent.push(c), showAbout: () => undefined, openDocumentation: () => undefined, clearRecent: () => undefined,
    };
    const view = buildMenuTemplate(ctx).find((m) => m.label === '&View')!.submenu as { label?: string; click?: () => void; registerAccelerator?: boolean; accelerator?: string }[];
    for (const [label] of PREVIEW_OVERLAYS) view.find((i) => i.label === label)!.click!();
    expect(sent).toEqual(['bodies', 'joints', 'torque', 'contacts', 'path'].map((overlay) => ({ kind: 'toggle-overlay', overlay })));
    const follow = view.find((i) => i.label === 'Toggle Follow Creature')!;
    follow.click!();
    expect(sent.at(-1)).toBe('toggle-follow');
    // "C" is shown but left to the renderer, like F: a bare-key accelerator would eat the key in text fields.
    expect([follow.accelerator, follow.registerAccelerator]).toEqual(['C', false]);
  });
});
