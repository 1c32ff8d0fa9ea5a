/**
 * Per-shape mass (ballast): a shape with its own `mass` or `density` keeps it, the body's mass or density
 * covers the rest, and the centroid and inertia combine by the parallel-axis theorem. Checked against hand
 * calculations, and in the World: a ball with its weight low rights itself (a weeble), one without does not.
 */
import { describe, expect, it } from 'vitest';
import { computeMassProperties, shapeMasses } from '../../../shared/physics/massProperties';
import type { ShapeDesc } from '../../../shared/physics/types';
import { World } from '../../../shared/physics/world';
import { quatFromAxisAngle, quatRotate } from '../../../shared/math/quat';

const close = (a: number, b: number, tol = 1e-12) => expect(Math.abs(a - b)).toBeLessThanOrEqual(tol);

describe('per-shape mass', () => {
  // A 0.2 m cube (no own mass) and a 5 cm ball of 9 kg 0.2 m below it; the body weighs 10 kg in total.
  const cube: ShapeDesc = { type: 'box', halfExtents: [0.1, 0.1, 0.1] };
  const ballast: ShapeDesc = { type: 'sphere', radius: 0.05, position: [0, -0.2, 0], mass: 9 };

  it('a heavy shape takes its own mass, the others share what is left of the body mass', () => {
    expect(shapeMasses([cube, ballast], { mass: 10 })).toEqual([1, 9]);
    // With a body density instead, the cube gets density × volume (0.008 m³ × 500 kg/m³ = 4 kg).
    const [m0, m1] = shapeMasses([cube, ballast], { density: 500 });
    close(m0!, 4); close(m1!, 9);
    // A shape density is density × that shape's volume.
    const lead: ShapeDesc = { ...cube, mass: undefined, density: 11340 };
    close(shapeMasses([lead, { ...ballast, mass: undefined }], { mass: 100 })[0]!, 11340 * 0.008, 1e-9);
  });

  it('centroid and inertia of a two-shape body with one heavy shape match the analytic values', () => {
    const mp = computeMassProperties([cube, ballast], { mass: 10 });
    close(mp.mass, 10);
    // Centroid: (1 kg · 0 + 9 kg · (−0.2 m)) / 10 kg = −0.18 m.
    close(mp.centroid[0], 0); close(mp.centroid[1], -0.18); close(mp.centroid[2], 0);
    // Own moments: cube m(b² + c²)/3 = 1·0.02/3; ball 2/5·9·0.05² = 0.009. Parallel axis about the centroid:
    // cube d = 0.18 → 1·0.0324; ball d = 0.02 → 9·0.0004 = 0.0036 (sum = reduced mass 0.9 kg × (0.2 m)²).
    const own = 0.02 / 3 + 0.009;
    const I = mp.inertia;
    close(I[0]!, own + 0.0324 + 0.0036, 1e-12);
    close(I[4]!, own, 1e-12);
    close(I[8]!, own + 0.0324 + 0.0036, 1e-12);
    for (const k of [1, 2, 3, 5, 6, 7]) close(I[k]!, 0);
  });

  it('an off-axis ballast gives the products of inertia −m·dx·dy', () => {
    const offAxis: ShapeDesc = { type: 'sphere', radius: 0.05, position: [0.1, -0.2, 0], mass: 9 };
    const mp = computeMassProperties([cube, offAxis], { mass: 10 });
    close(mp.centroid[0], 0.09); close(mp.centroid[1], -0.18);
    // Σ −m·dx·dy: cube (−0.09, 0.18) → −1·(−0.09·0.18); ball (0.01, −0.02) → −9·(0.01·−0.02).
    close(mp.inertia[1]!, 0.09 * 0.18 + 9 * 0.0002, 1e-12);
    close(mp.inertia[3]!, mp.inertia[1]!);
  });

  it('refuses masses that cannot be, naming the shape and the reason', () => {
    expect(() => shapeMasses([cube, { ...ballast, density: 1000 }], { mass: 10 })).toThrow(/shape 1 \(sphere\): gives both mass and density/);
    expect(() => shapeMasses([cube, { ...ballast, mass: -1 }], { mass: 10 })).toThrow(/shape 1 \(sphere\): mass must be a finite number > 0/);
    expect(() => shapeMasses([cube, ballast], { mass: 9 })).toThrow(/already weigh 9 kg, not less than the body mass 9 kg/);
    expect(() => shapeMasses([{ ...cube, mass: 1 }, ballast], { mass: 12 })).toThrow(/together 10 kg\) but the body mass is 12 kg/);
    expect(shapeMasses([{ ...cube, mass: 1 }, ballast], { mass: 10 })).toEqual([1, 9]);
  });

  it('in the World: a ball with its weight low rights itself after being tipped 60° (rolling r·θ back); the same ball without ballast stays tipped', () => {
    const tilt = (withBallast: boolean): { deg: number; rolled: number } => {
      const world = new World({ substeps: 2, groundHeight: 0 });
      const shell: ShapeDesc = { type: 'sphere', radius: 0.3 };
      const weight: ShapeDesc = { type: 'cylinder', radius: 0.15, halfHeight: 0.03, position: [0, -0.22, 0], mass: 16 };
      const rotation = quatFromAxisAngle([1, 0, 0], 60 * Math.PI / 180);
      const body = world.addBody({
        type: 'dynamic', position: [0, 0.3, 0], rotation, shapes: withBallast ? [shell, weight] : [shell], mass: 20,
        angularDamping: 3, material: { friction: 0.8, restitution: 0 },
      });
      for (let i = 0; i < 360; i++) world.step(1 / 60);
      const up = quatRotate(world.getRotation(body), [0, 1, 0]);
      return { deg: Math.acos(Math.min(1, up[1])) * 180 / Math.PI, rolled: -world.getPosition(body)[2] };
    };
    const weeble = tilt(true), ball = tilt(false);
    expect(weeble.deg).toBeLessThan(2);
    // It rolled back without slipping (μ 0.8): the centre moved r·θ = 0.3 m × 60° = 0.314 m.
    expect(Math.abs(weeble.rolled - 0.3 * Math.PI / 3)).toBeLessThan(0.02);
    expect(ball.deg).toBeGreaterThan(59);
  });
});
