/**
 * Shapes against a large static box (the benchmark's 200 m × 2 m × 200 m ground): the narrow phase must
 * report what the ground-plane routine reports for the same shape on the plane y = 0.
 *
 * Regression (defect 1): a capsule r 0.05, halfHeight 0.2 at (−0.0053, 0.2398, 0) turned 18.4° about z was
 * given a depth of 0.43 m against that box (its true gap is 2.5e-5 m); spinning it the depth climbed to
 * 3.9 m and the push-out threw the ragdolls. Cause: GJK's no-progress test was purely relative (1e-10·|v|²)
 * while v·w carries a rounding error of ε·|v|·|w| with |w| ≈ 141 m, so GJK ran on into a flat tetrahedron,
 * declared overlap and EPA measured the wrong face.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collide, collideGround } from '../../../../shared/physics/collision';
import type { ShapeDesc } from '../../../../shared/physics/types';
import type { Quat, Vec3 } from '../../../../shared/math';
import { axisAngle, checkManifoldInvariant, manifold, place } from './helpers';

const MARGIN = 0.02;
const GROUND: ShapeDesc = { type: 'box', halfExtents: [100, 1, 100] };
const GROUND_AT: Vec3 = [0, -1, 0]; // top face at y = 0
const CAPSULE: ShapeDesc = { type: 'capsule', radius: 0.05, halfHeight: 0.2, axis: 'y' };

/** The capsule's true depth on y = 0: its lower core end is at y − halfHeight·cos θ, then the radius. */
const capsuleDepth = (y: number, deg: number): number => 0.05 - (y - 0.2 * Math.abs(Math.cos((deg * Math.PI) / 180)));

describe('capsule on the benchmark ground box (defect 1 regression)', () => {
  it('the reported pose: depth −2.5e-5 m (apart), in either argument order, same as the plane', () => {
    const cap = place(CAPSULE, [-0.0053, 0.2398, 0], axisAngle([0, 0, 1], 18.4));
    const ground = place(GROUND, GROUND_AT);
    const expected = capsuleDepth(0.2398, 18.4);
    expect(expected).toBeCloseTo(-2.48e-5, 7);
    const m = manifold();
    expect(collide(cap, ground, MARGIN, m)).toBe(1);
    checkManifoldInvariant(m);
    expect(m.depth[0]).toBeCloseTo(expected, 9);
    expect(Array.from(m.normal)).toEqual([-0, -1, -0].map((v) => expect.closeTo(v, 12)));
    expect(collide(ground, cap, MARGIN, m)).toBe(1);
    checkManifoldInvariant(m);
    expect(m.depth[0]).toBeCloseTo(expected, 9);
    expect(m.normal[1]).toBeCloseTo(1, 12);
  });

  it('spinning about z from −90° to 90°: the depth follows the analytic value to 1e-9 m', () => {
    const ground = place(GROUND, GROUND_AT);
    const m = manifold();
    for (let deg = -90; deg <= 90; deg += 0.7) {
      const cap = place(CAPSULE, [-0.0053, 0.2398, 0], axisAngle([0, 0, 1], deg));
      const expected = capsuleDepth(0.2398, deg);
      const n = collide(cap, ground, MARGIN, m);
      if (expected < -MARGIN - 1e-9) { expect(n, `${deg}°`).toBe(0); continue; }
      expect(n, `${deg}°`).toBeGreaterThan(0);
      expect(Math.max(...m.depth.subarray(0, n)), `${deg}°`).toBeCloseTo(expected, 9);
    }
  });

  it('a capsule lying on the box: exactly 2 distinct points, both ends, depth 0.01 m', () => {
    const m = manifold();
    const cap = place(CAPSULE, [3, 0.04, -2], axisAngle([0, 0, 1], 90));
    expect(collide(cap, place(GROUND, GROUND_AT), MARGIN, m)).toBe(2);
    checkManifoldInvariant(m);
    const xs = [m.pointA[0]!, m.pointA[3]!].sort((a, b) => a - b);
    expect(xs[0]).toBeCloseTo(2.8, 9);
    expect(xs[1]).toBeCloseTo(3.2, 9);
    for (let i = 0; i < 2; i++) expect(m.depth[i]).toBeCloseTo(0.01, 9);
    expect(m.featureId[0]).not.toBe(m.featureId[1]);
  });
});

type Kind = 'capsule' | 'box' | 'cylinder';
const DESCS: Record<Kind, ShapeDesc> = {
  capsule: { type: 'capsule', radius: 0.06, halfHeight: 0.25, axis: 'y' },
  box: { type: 'box', halfExtents: [0.3, 0.1, 0.2] },
  cylinder: { type: 'cylinder', radius: 0.15, halfHeight: 0.3, axis: 'y' },
};

/** Depth of the shape's lowest point below y = 0 when its body sits at the origin (from the plane routine). */
function lowestDepthAtOrigin(desc: ShapeDesc, q: Quat): number {
  const m = manifold();
  collideGround(place(desc, [0, 0, 0], q), 0, 1e9, m);
  return Math.max(...m.depth.subarray(0, m.count));
}

describe('property: against a 200 m box the narrow phase agrees with the ground plane', () => {
  const unitQuat = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
    .filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 0.01)
    .map(([x, y, z, w]): Quat => { const l = Math.hypot(x, y, z, w); return [x / l, y / l, z / l, w / l]; });

  it('same normal, same deepest depth (1e-7 m), contact iff the plane has one; capsule: same point count', () => {
    fc.assert(fc.property(
      fc.constantFrom<Kind>('capsule', 'box', 'cylinder'), unitQuat,
      // Known separation (< 0) or penetration (> 0) of the lowest point, m.
      fc.double({ min: -0.03, max: 0.05, noNaN: true }),
      fc.double({ min: -50, max: 50, noNaN: true }), fc.double({ min: -50, max: 50, noNaN: true }),
      (kind, q, depth, x, z) => {
        // Away from the margin's edge, where either answer is right.
        fc.pre(Math.abs(depth + MARGIN) > 1e-6);
        const desc = DESCS[kind];
        const y = lowestDepthAtOrigin(desc, q) - depth;
        const shape = place(desc, [x, y, z], q);
        const plane = manifold(), boxed = manifold();
        const np = collideGround(shape, 0, MARGIN, plane);
        const nb = collide(shape, place(GROUND, GROUND_AT), MARGIN, boxed);
        expect(nb > 0, `${kind} depth ${depth}: box ${nb} points, plane ${np}`).toBe(np > 0);
        if (np === 0) return;
        checkManifoldInvariant(boxed, 1e-7);
        expect(boxed.normal[1]).toBeCloseTo(-1, 7);
        const deepest = Math.max(...boxed.depth.subarray(0, nb));
        expect(Math.abs(deepest - depth), `${kind}: box says ${deepest}, plane ${depth}`).toBeLessThan(1e-7);
        expect(Math.max(...plane.depth.subarray(0, np))).toBeCloseTo(depth, 9);
        for (let i = 0; i < nb; i++) expect(boxed.depth[i]).toBeGreaterThanOrEqual(-MARGIN - 1e-9);
        if (kind === 'capsule') expect(nb).toBe(np);
      },
    ), { numRuns: 400, seed: 3 });
  });
});
