/**
 * Momentum of a free rigid body (issue 11 item 3): a box with I = diag(0.4, 1.36, 1.6) spun about its
 * intermediate axis tumbles (Dzhanibekov). Over 5 s at 60 Hz the gyroscopic step (bodies.ts: implicit
 * midpoint in the body frame) keeps |L| and the kinetic energy — the bound is 0.5 % and 1 %, the
 * scheme keeps both to ~1e-12 — and the flips come when Euler's equations, integrated with RK4 at 1e-4 s,
 * say they do. The previous single Newton step of implicit Euler lost 10.7 % of |L| and 20 % of the energy
 * on the first spin below and flipped 0.07 s early.
 */
import { describe, expect, it } from 'vitest';
import type { Vec3 } from '../../../shared/math/vec3';
import { World } from '../../../shared/physics/world';

const DIAG: Vec3 = [0.4, 1.36, 1.6];
// A 12 kg box of full extents (a, b, c): I = m/12·(b² + c², a² + c², a² + b²) = DIAG.
const HALF: Vec3 = [Math.sqrt(0.32), Math.sqrt(0.08), Math.sqrt(0.02)];

/** Flip times (ω_y changes sign) of Euler's equations I·ω̇ = −ω × I·ω, RK4 at dt. */
function referenceFlips(w0: Vec3, T: number, dt = 1e-4): number[] {
  const [A, B, C] = DIAG;
  const f = (w: Vec3): Vec3 => [((B - C) / A) * w[1] * w[2], ((C - A) / B) * w[2] * w[0], ((A - B) / C) * w[0] * w[1]];
  const add = (w: Vec3, k: Vec3, s: number): Vec3 => [w[0] + s * k[0], w[1] + s * k[1], w[2] + s * k[2]];
  let w = w0;
  const flips: number[] = [];
  for (let i = 0; i * dt < T; i++) {
    const k1 = f(w), k2 = f(add(w, k1, dt / 2)), k3 = f(add(w, k2, dt / 2)), k4 = f(add(w, k3, dt));
    const n: Vec3 = [0, 1, 2].map((j) => w[j]! + (dt / 6) * (k1[j]! + 2 * k2[j]! + 2 * k3[j]! + k4[j]!)) as Vec3;
    if (Math.sign(n[1]) !== Math.sign(w[1])) flips.push((i + 0.5) * dt);
    w = n;
  }
  return flips;
}

/** World angular momentum R·I·Rᵀ·ω, kinetic energy and the body-frame ω_y of body b. */
function state(world: World, b: ReturnType<World['addBody']>): { L: Vec3; E: number; wy: number } {
  const [x, y, z, s] = world.getRotation(b), w = world.getAngularVelocity(b);
  const R = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * s), 2 * (x * z + y * s)], [2 * (x * y + z * s), 1 - 2 * (x * x + z * z), 2 * (y * z - x * s)], [2 * (x * z - y * s), 2 * (y * z + x * s), 1 - 2 * (x * x + y * y)]];
  const wb = [0, 1, 2].map((k) => R[0]![k]! * w[0] + R[1]![k]! * w[1] + R[2]![k]! * w[2]);
  const lb = wb.map((v, k) => DIAG[k]! * v);
  const L = [0, 1, 2].map((k) => R[k]![0]! * lb[0]! + R[k]![1]! * lb[1]! + R[k]![2]! * lb[2]!) as Vec3;
  return { L, E: 0.5 * (wb[0]! * lb[0]! + wb[1]! * lb[1]! + wb[2]! * lb[2]!), wy: wb[1]! };
}

describe('free rigid body: momentum and energy', () => {
  for (const w0 of [[0.2, 6, 0.1], [0.02, 3, 0.05], [1, 3, 0.5]] as Vec3[]) {
    it(`box I = diag(0.4, 1.36, 1.6) tumbling from ω = [${w0.join(', ')}] rad/s: |L| and KE kept over 5 s at 60 Hz, flips on time`, () => {
      const world = new World({ gravity: [0, 0, 0] });
      const b = world.addBody({ type: 'dynamic', mass: 12, position: [0, 0, 0], shapes: [{ type: 'box', halfExtents: HALF }], angularVelocity: w0 });
      const I = world.getMassProperties(b).inertia;
      [I[0], I[4], I[8]].forEach((v, k) => expect(v).toBeCloseTo(DIAG[k]!, 12));
      const s0 = state(world, b), L0 = Math.hypot(...s0.L);
      let maxL = 0, maxE = 0, maxDir = 0, prevY = s0.wy;
      const flips: number[] = [];
      for (let i = 1; i <= 300; i++) {
        world.step(1 / 60);
        const s = state(world, b);
        maxL = Math.max(maxL, Math.abs(Math.hypot(...s.L) / L0 - 1));
        maxE = Math.max(maxE, Math.abs(s.E / s0.E - 1));
        maxDir = Math.max(maxDir, Math.hypot(s.L[0] - s0.L[0], s.L[1] - s0.L[1], s.L[2] - s0.L[2]) / L0);
        if (Math.sign(s.wy) !== Math.sign(prevY)) flips.push(i / 60);
        prevY = s.wy;
      }
      expect(maxL).toBeLessThan(1e-9); // issue bound 0.5 %
      expect(maxE).toBeLessThan(1e-9); // issue bound 1 %
      // The world vector L itself is kept (issue bound |ΔL|/|L| ≤ 0.5 %): the body turns with the midpoint ω_m,
      // the Cayley rotation that undoes the body-frame momentum's turn. Turning with the end-of-step ω₁ let
      // the direction wobble by up to 3.1 % during a flip here, 3.2–11 % with the damped step.
      expect(maxDir).toBeLessThan(1e-9);
      const ref = referenceFlips(w0, 5);
      expect(ref.length).toBeGreaterThan(0);
      expect(flips.length).toBe(ref.length);
      flips.forEach((t, k) => expect(Math.abs(t - ref[k]!), `flip ${k}: ${t} s vs ${ref[k]} s`).toBeLessThan(0.025));
    });
  }

  it("'damped' (the previous step, still the rig default) loses spin on the same box; an unknown value is refused", () => {
    const run = (gyroscopic?: 'conserving' | 'damped') => {
      const world = new World({ gravity: [0, 0, 0], ...(gyroscopic ? { gyroscopic } : {}) });
      const b = world.addBody({ type: 'dynamic', mass: 12, position: [0, 0, 0], shapes: [{ type: 'box', halfExtents: HALF }], angularVelocity: [0.2, 6, 0.1] });
      const L0 = Math.hypot(...state(world, b).L);
      for (let i = 0; i < 300; i++) world.step(1 / 60);
      return Math.hypot(...state(world, b).L) / L0 - 1;
    };
    expect(Math.abs(run())).toBeLessThan(1e-9);
    expect(Math.abs(run('conserving'))).toBeLessThan(1e-9);
    expect(run('damped')).toBeLessThan(-0.05); // measured −10.7 %
    expect(() => new World({ gyroscopic: 'exact' as never })).toThrow("world settings: gyroscopic must be 'conserving' or 'damped', got 'exact'");
  });
});
