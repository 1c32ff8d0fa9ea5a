import { describe, expect, it } from 'vitest';
import { quatRotate } from '../../../shared/math/quat';
import { World } from '../../../shared/physics/world';
import type { BodyHandle } from '../../../shared/physics/types';
import { energy, momentum, rng } from './helpers';

describe('integration', () => {
  it('free fall follows semi-implicit Euler exactly and the analytic parabola within g·h·t/2', () => {
    const w = new World({ gravity: [0, -9.81, 0] });
    const b = w.addBody({ type: 'dynamic', position: [0, 100, 0], linearVelocity: [1, 2, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
    const h = 1 / 60, n = 120;
    for (let i = 0; i < n; i++) w.step(h);
    const t = n * h;
    const y = w.getPosition(b)[1];
    // Semi-implicit Euler: v_k = v₀ − g·k·h, y_n = y₀ + h·Σ_{k=1..n} v_k = y₀ + v₀·t − g·h²·n(n+1)/2.
    const discrete = 100 + 2 * t - (9.81 * h * h * n * (n + 1)) / 2;
    expect(Math.abs(y - discrete)).toBeLessThan(1e-9);
    const analytic = 100 + 2 * t - 0.5 * 9.81 * t * t;
    expect(Math.abs(y - analytic)).toBeLessThanOrEqual(0.5 * 9.81 * h * t + 1e-9);
    expect(w.getPosition(b)[0]).toBeCloseTo(t, 9);
  });

  it('gravity scale, damping and substeps', () => {
    const w = new World({ substeps: 4 });
    const floaty = w.addBody({ type: 'dynamic', position: [0, 0, 0], gravityScale: 0, shapes: [{ type: 'sphere', radius: 0.1 }] });
    const damped = w.addBody({ type: 'dynamic', position: [5, 0, 0], gravityScale: 0, linearDamping: 2, linearVelocity: [1, 0, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
    for (let i = 0; i < 60; i++) w.step(1 / 60);
    expect(w.getPosition(floaty)).toEqual([0, 0, 0]);
    // v after 1 s = (1 + h·c)^(−240) with h = 1/240 → ≈ e^(−2).
    expect(w.getLinearVelocity(damped)[0]).toBeCloseTo((1 + 2 / 240) ** -240, 12);
  });

  it('a spinning box about its major axis precesses without gaining energy; |L| is conserved within 1 %', () => {
    const w = new World({ gravity: [0, 0, 0] });
    const b = w.addBody({ type: 'dynamic', position: [0, 0, 0], mass: 3, shapes: [{ type: 'box', halfExtents: [0.1, 0.3, 0.6] }], angularVelocity: [6, 0.5, 0.3] });
    const e0 = energy(w, [b], 0), L0 = Math.hypot(...momentum(w, [b]).L);
    let maxE = e0, minL = L0, maxL = L0;
    for (let i = 0; i < 600; i++) {
      w.step(1 / 60);
      maxE = Math.max(maxE, energy(w, [b], 0));
      const L = Math.hypot(...momentum(w, [b]).L);
      minL = Math.min(minL, L); maxL = Math.max(maxL, L);
    }
    expect(maxE).toBeLessThanOrEqual(e0 * (1 + 1e-9));
    expect(maxL / L0).toBeLessThan(1.01);
    expect(minL / L0).toBeGreaterThan(0.99);
    // Bounded precession: ω stays within 15° of the major (x) axis.
    const om = w.getAngularVelocity(b), q = w.getRotation(b);
    const wb = quatRotate([-q[0], -q[1], -q[2], q[3]], om);
    expect(Math.acos(Math.abs(wb[0]) / Math.hypot(...wb))).toBeLessThan((15 * Math.PI) / 180);
  });

  it('about the unstable middle axis the box tumbles but its energy never increases', () => {
    const w = new World({ gravity: [0, 0, 0] });
    const b = w.addBody({ type: 'dynamic', position: [0, 0, 0], mass: 3, shapes: [{ type: 'box', halfExtents: [0.1, 0.3, 0.6] }], angularVelocity: [0.2, 6, 0.1] });
    let prev = energy(w, [b], 0);
    for (let i = 0; i < 600; i++) {
      w.step(1 / 60);
      const e = energy(w, [b], 0);
      expect(e).toBeLessThanOrEqual(prev * (1 + 1e-9));
      prev = e;
    }
  });

  it('random jointed spheres without gravity conserve linear momentum (1e-9) and angular momentum (1 %)', () => {
    const r = rng(7);
    const w = new World({ gravity: [0, 0, 0] });
    const bodies: BodyHandle[] = [];
    for (let i = 0; i < 6; i++) {
      bodies.push(w.addBody({
        type: 'dynamic', position: [i * 0.5, 0, 0],
        shapes: [{ type: 'sphere', radius: 0.1 + 0.1 * r() }],
        linearVelocity: [r() - 0.5, r() - 0.5, r() - 0.5], angularVelocity: [3 * r() - 1.5, 3 * r() - 1.5, 3 * r() - 1.5],
      }));
      if (i > 0) {
        const type = i % 2 === 0 ? 'ball' : 'hinge';
        w.addJoint({
          type, bodyA: bodies[i - 1]!, bodyB: bodies[i]!,
          frameA: { position: [0.25, 0, 0] }, frameB: { position: [-0.25, 0, 0] },
        } as Parameters<World['addJoint']>[0]);
      }
    }
    const m0 = momentum(w, bodies);
    for (let i = 0; i < 300; i++) w.step(1 / 60);
    const m1 = momentum(w, bodies);
    const Pn = Math.hypot(...m0.P), Ln = Math.hypot(...m0.L);
    for (let k = 0; k < 3; k++) {
      expect(Math.abs(m1.P[k]! - m0.P[k]!)).toBeLessThan(1e-9 * Math.max(1, Pn));
      expect(Math.abs(m1.L[k]! - m0.L[k]!)).toBeLessThan(0.01 * Ln);
    }
  });
});
