import { describe, expect, it } from 'vitest';
import { collide } from '../../../../shared/physics/collision';
import type { ShapeDesc } from '../../../../shared/physics/types';
import type { Vec3 } from '../../../../shared/math';
import { axisAngle, checkManifoldInvariant, compose, expectClose, manifold, place, points, sortPts } from './helpers';

const MARGIN = 0.02;
const sphere = (radius: number): ShapeDesc => ({ type: 'sphere', radius });
const capsule = (radius: number, halfHeight: number, axis: 'x' | 'y' | 'z' = 'y'): ShapeDesc => ({ type: 'capsule', radius, halfHeight, axis });
const box = (x: number, y: number, z: number): ShapeDesc => ({ type: 'box', halfExtents: [x, y, z] });
const cylinder = (radius: number, halfHeight: number, axis: 'x' | 'y' | 'z' = 'y'): ShapeDesc => ({ type: 'cylinder', radius, halfHeight, axis });
const ellipsoid = (x: number, y: number, z: number): ShapeDesc => ({ type: 'ellipsoid', radii: [x, y, z] });

const ALL: Array<[string, ShapeDesc]> = [
  ['sphere', sphere(0.4)], ['capsule', capsule(0.3, 0.4)], ['box', box(0.4, 0.3, 0.5)],
  ['cylinder', cylinder(0.35, 0.45)], ['ellipsoid', ellipsoid(0.5, 0.3, 0.4)],
];

describe('every pair', () => {
  for (const [na, da] of ALL) {
    for (const [nb, db] of ALL) {
      it(`${na}–${nb}: separated → no contact; overlapping → normal A→B with pointA − pointB = depth·n`, () => {
        const m = manifold();
        const q = axisAngle([0.3, 1, 0.2], 37);
        // 3 m apart: far beyond every shape's extent plus the margin.
        expect(collide(place(da, [0, 0, 0]), place(db, [3, 0.1, -0.2], q), MARGIN, m)).toBe(0);
        // Centres 0.5 m apart along x: every pair overlaps.
        const n = collide(place(da, [0, 0, 0]), place(db, [0.5, 0.05, -0.02], q), MARGIN, m);
        expect(n).toBeGreaterThan(0);
        checkManifoldInvariant(m);
        // B is on +x of A, so the normal must point roughly +x.
        expect(m.normal[0]).toBeGreaterThan(0.5);
        for (let i = 0; i < n; i++) expect(m.depth[i]).toBeGreaterThan(-MARGIN - 1e-12);
        expect(Math.max(...m.depth.subarray(0, n))).toBeGreaterThan(0);
        // Swapping the arguments flips the normal and keeps the depths.
        const m2 = manifold();
        const n2 = collide(place(db, [0.5, 0.05, -0.02], q), place(da, [0, 0, 0]), MARGIN, m2);
        expect(n2).toBe(n);
        expectClose(m2.normal, [-m.normal[0]!, -m.normal[1]!, -m.normal[2]!], 1e-6, 'flipped normal');
        expect(Math.max(...m2.depth.subarray(0, n2))).toBeCloseTo(Math.max(...m.depth.subarray(0, n)), 6);
      });
    }
  }
});

describe('exact depths and normals (tolerance 1e-9 unless stated)', () => {
  it('sphere–sphere', () => {
    const m = manifold();
    expect(collide(place(sphere(1), [0, 0, 0]), place(sphere(0.5), [0, 0, 1.4]), 0, m)).toBe(1);
    expectClose(m.normal, [0, 0, 1], 1e-12);
    expect(m.depth[0]).toBeCloseTo(0.1, 12);
    expectClose(points(m)[0]!, [0, 0, 1], 1e-12);
    // Speculative: 0.01 apart, margin 0.02 → depth −0.01; margin 0.005 → nothing.
    expect(collide(place(sphere(1), [0, 0, 0]), place(sphere(0.5), [1.51, 0, 0]), 0.02, m)).toBe(1);
    expect(m.depth[0]).toBeCloseTo(-0.01, 12);
    expect(collide(place(sphere(1), [0, 0, 0]), place(sphere(0.5), [1.51, 0, 0]), 0.005, m)).toBe(0);
  });

  it('sphere–capsule against the side and the end cap', () => {
    const m = manifold();
    const c = place(capsule(0.2, 1, 'x'), [0, 0, 0]);
    collide(place(sphere(0.5), [0.7, 0.6, 0]), c, 0, m);
    expectClose(m.normal, [0, -1, 0], 1e-12);
    expect(m.depth[0]).toBeCloseTo(0.1, 12);
    collide(place(sphere(0.5), [1.6, 0, 0]), c, 0, m);
    expectClose(m.normal, [-1, 0, 0], 1e-12);
    expect(m.depth[0]).toBeCloseTo(0.1, 12);
  });

  it('capsule–capsule crossing at right angles: one point, depth rA + rB − gap', () => {
    const m = manifold();
    expect(collide(place(capsule(0.2, 1, 'x'), [0, 0, 0]), place(capsule(0.1, 1, 'z'), [0.3, 0.25, 0.4]), 0, m)).toBe(1);
    expectClose(m.normal, [0, 1, 0], 1e-12);
    expect(m.depth[0]).toBeCloseTo(0.05, 12);
    expectClose(points(m)[0]!, [0.3, 0.2, 0], 1e-12);
  });

  it('capsule–capsule side by side: two points at the ends of the overlap', () => {
    const m = manifold();
    expect(collide(place(capsule(0.2, 1, 'x'), [0, 0, 0]), place(capsule(0.2, 0.5, 'x'), [0.8, 0.35, 0]), 0.02, m)).toBe(2);
    checkManifoldInvariant(m);
    expectClose(m.normal, [0, 1, 0], 1e-12);
    expect(sortPts(points(m))).toEqual([[0.3, 0.2, 0], [1, 0.2, 0]].map((p) => p.map((v) => expect.closeTo(v, 12))));
    expect(m.depth[0]).toBeCloseTo(0.05, 12);
    expect(m.depth[1]).toBeCloseTo(0.05, 12);
  });

  it('sphere–box: face, edge, corner and centre inside', () => {
    const m = manifold();
    const b = place(box(1, 0.5, 2), [0, 0, 0]);
    collide(place(sphere(0.3), [0.2, 0.7, -0.5]), b, 0, m);
    expectClose(m.normal, [0, -1, 0], 1e-12); expect(m.depth[0]).toBeCloseTo(0.1, 12);
    collide(place(sphere(0.3), [1.1, 0.6, 0]), b, 0, m);
    expectClose(m.normal, [-Math.SQRT1_2, -Math.SQRT1_2, 0], 1e-12); expect(m.depth[0]).toBeCloseTo(0.3 - Math.SQRT2 * 0.1, 12);
    collide(place(sphere(0.3), [1.1, 0.6, 2.1]), b, 0, m);
    expect(m.depth[0]).toBeCloseTo(0.3 - Math.sqrt(3) * 0.1, 12);
    collide(place(sphere(0.3), [0.9, 0, 0]), b, 0, m);
    expectClose(m.normal, [-1, 0, 0], 1e-12); expect(m.depth[0]).toBeCloseTo(0.4, 12);
  });

  it('box resting on a box at an offset: 4 points at the corners of the overlap rectangle', () => {
    const m = manifold();
    const n = collide(place(box(1, 1, 1), [0, 0, 0]), place(box(0.5, 0.5, 0.5), [0.8, 1.49, 0.3]), MARGIN, m);
    expect(n).toBe(4);
    checkManifoldInvariant(m);
    expectClose(m.normal, [0, 1, 0], 1e-12);
    for (let i = 0; i < 4; i++) expect(m.depth[i]).toBeCloseTo(0.01, 12);
    const want: Vec3[] = [[0.3, 0.99, -0.2], [0.3, 0.99, 0.8], [1, 0.99, -0.2], [1, 0.99, 0.8]];
    const got = sortPts(points(m, 'B'));
    for (let i = 0; i < 4; i++) expectClose(got[i]!, want[i]!, 1e-12, `corner ${i}`);
  });

  it('box on a box rotated 30° about y: the 4 bottom corners of the top box', () => {
    const m = manifold();
    const q = axisAngle([0, 1, 0], 30);
    expect(collide(place(box(1, 1, 1), [0, 0, 0]), place(box(0.5, 0.5, 0.5), [0, 1.49, 0], q), MARGIN, m)).toBe(4);
    const c = Math.cos(Math.PI / 6) * 0.5, s = Math.sin(Math.PI / 6) * 0.5;
    const want = sortPts([[c + s, 0.99, c - s], [c - s, 0.99, -c - s], [-c - s, 0.99, -c + s], [-c + s, 0.99, c + s]]);
    const got = sortPts(points(m, 'B'));
    for (let i = 0; i < 4; i++) expectClose(got[i]!, want[i]!, 1e-12);
  });

  it('box–box in a rotated frame gives the same depths (whole scene turned)', () => {
    const q = compose(axisAngle([1, 0, 0], 25), axisAngle([0, 0, 1], -40));
    const m = manifold();
    const rot = (v: Vec3): Vec3 => {
      const t = place(sphere(1), [0, 0, 0], q).matrix;
      return [t[0]! * v[0] + t[1]! * v[1] + t[2]! * v[2], t[3]! * v[0] + t[4]! * v[1] + t[5]! * v[2], t[6]! * v[0] + t[7]! * v[1] + t[8]! * v[2]];
    };
    expect(collide(place(box(1, 1, 1), [0, 0, 0], q), place(box(0.5, 0.5, 0.5), rot([0.8, 1.49, 0.3]), q), MARGIN, m)).toBe(4);
    expectClose(m.normal, rot([0, 1, 0]), 1e-12);
    for (let i = 0; i < 4; i++) expect(m.depth[i]).toBeCloseTo(0.01, 12);
  });

  it('box–box edge on edge: one point, depth from the SAT axis', () => {
    const m = manifold();
    expect(collide(place(box(1, 1, 1), [0, 0, 0], axisAngle([1, 0, 0], 45)), place(box(1, 1, 1), [0, 2.3, 0], axisAngle([0, 0, 1], 45)), MARGIN, m)).toBe(1);
    expectClose(m.normal, [0, 1, 0], 1e-12);
    expect(m.depth[0]).toBeCloseTo(2 * Math.SQRT2 - 2.3, 12);
    expectClose(points(m)[0]!, [0, Math.SQRT2, 0], 1e-12);
  });

  it('capsule lying on a box: 2 points, exact depth (GJK/EPA path, 1e-9)', () => {
    const m = manifold();
    expect(collide(place(capsule(0.1, 0.5, 'x'), [0.2, 1.09, 0.1]), place(box(1, 1, 1), [0, 0, 0]), MARGIN, m)).toBe(2);
    checkManifoldInvariant(m);
    expectClose(m.normal, [0, -1, 0], 1e-9);
    expect(sortPts(points(m))).toEqual([[-0.3, 0.99, 0.1], [0.7, 0.99, 0.1]].map((p) => p.map((v) => expect.closeTo(v, 9))));
    for (let i = 0; i < 2; i++) expect(m.depth[i]).toBeCloseTo(0.01, 9);
  });

  it('capsule near the edge of a large static box is pushed up, not sideways', () => {
    const m = manifold();
    // A 50 m slab; the capsule overhangs its +x edge by 0.3 m.
    expect(collide(place(capsule(0.15, 0.4, 'x'), [25, 0.6, 0]), place(box(25, 0.5, 25), [0, 0, 0]), MARGIN, m)).toBeGreaterThan(0);
    expectClose(m.normal, [0, -1, 0], 1e-9);
    expect(Math.max(...m.depth.subarray(0, m.count))).toBeCloseTo(0.05, 9);
  });

  it('cylinder standing on a box: 4 points on the rim, exact depth', () => {
    const m = manifold();
    const n = collide(place(cylinder(0.3, 0.5), [0.2, 1.49, 0.1]), place(box(1, 1, 1), [0, 0, 0]), MARGIN, m);
    expect(n).toBeGreaterThanOrEqual(3);
    checkManifoldInvariant(m);
    expectClose(m.normal, [0, -1, 0], 1e-9);
    for (const p of points(m)) {
      expect(Math.hypot(p[0] - 0.2, p[2] - 0.1)).toBeCloseTo(0.3, 9);
      expect(p[1]).toBeCloseTo(0.99, 9);
    }
    for (let i = 0; i < n; i++) expect(m.depth[i]).toBeCloseTo(0.01, 9);
  });

  it('cylinder lying on a box: 2 points along its lowest line', () => {
    const m = manifold();
    expect(collide(place(cylinder(0.3, 0.5, 'z'), [0.2, 1.29, 0.1]), place(box(1, 1, 1), [0, 0, 0]), MARGIN, m)).toBe(2);
    expect(sortPts(points(m))).toEqual([[0.2, 0.99, -0.4], [0.2, 0.99, 0.6]].map((p) => p.map((v) => expect.closeTo(v, 9))));
  });

  it('cylinder on a cylinder (stacked, offset): ≥ 3 points in the overlap, depth exact', () => {
    const m = manifold();
    const n = collide(place(cylinder(0.3, 0.5), [0.2, 0.99, 0.1]), place(cylinder(0.3, 0.5), [0, 0, 0]), MARGIN, m);
    expect(n).toBeGreaterThanOrEqual(3);
    expectClose(m.normal, [0, -1, 0], 1e-9);
    for (let i = 0; i < n; i++) expect(m.depth[i]).toBeCloseTo(0.01, 9);
    for (const p of points(m)) {
      // Inside both discs (8-gon corners are on the rim; clipped points are inside).
      expect(Math.hypot(p[0], p[2])).toBeLessThanOrEqual(0.3 + 1e-9);
      expect(Math.hypot(p[0] - 0.2, p[2] - 0.1)).toBeLessThanOrEqual(0.3 + 1e-9);
    }
  });

  it('sphere against a cylinder side and cap', () => {
    const m = manifold();
    const c = place(cylinder(0.3, 0.5), [0, 0, 0]);
    collide(place(sphere(0.3), [0.1, 0.79, 0.05]), c, 0, m);
    expectClose(m.normal, [0, -1, 0], 1e-9); expect(m.depth[0]).toBeCloseTo(0.01, 9);
    collide(place(sphere(0.2), [0.45, 0.1, 0]), c, 0, m);
    expectClose(m.normal, [-1, 0, 0], 1e-9); expect(m.depth[0]).toBeCloseTo(0.05, 9);
  });

  it('tilted cylinder resting on its rim: depth of the true rim point (1e-6)', () => {
    const m = manifold();
    const q = axisAngle([1, 0.3, 0], 30);
    const cyl = place(cylinder(0.3, 0.5), [0, 0, 0], q);
    // Lowest point of the tilted cylinder: min over the rim of the lower cap (dense sampling).
    let low = Infinity;
    const M = cyl.matrix;
    for (let k = 0; k < 100000; k++) {
      const t = (2 * Math.PI * k) / 100000;
      const y = -0.5 * M[4]! + 0.3 * (Math.cos(t) * M[5]! + Math.sin(t) * M[3]!);
      low = Math.min(low, y);
    }
    collide(cyl, place(box(2, 0.5, 2), [0, low - 0.5 + 0.01, 0]), MARGIN, m);
    expectClose(m.normal, [0, -1, 0], 1e-9);
    expect(Math.max(...m.depth.subarray(0, m.count))).toBeCloseTo(0.01, 6);
  });

  it('ellipsoid on a box: depth by its semi-axis', () => {
    const m = manifold();
    collide(place(ellipsoid(0.3, 0.2, 0.1), [0.1, 1.19, 0]), place(box(1, 1, 1), [0, 0, 0]), MARGIN, m);
    expectClose(m.normal, [0, -1, 0], 1e-9);
    expect(m.depth[0]).toBeCloseTo(0.01, 9);
  });
});

describe('feature ids', () => {
  it('stay the same under tiny motions of a resting box', () => {
    const base = place(box(1, 1, 1), [0, 0, 0]);
    const m0 = manifold(), m1 = manifold();
    collide(base, place(box(0.5, 0.5, 0.5), [0.8, 1.49, 0.3]), MARGIN, m0);
    const ids0 = [...m0.featureId.subarray(0, m0.count)].sort();
    for (const [dx, dy, ang] of [[1e-4, 0, 0], [0, -2e-4, 0.01], [-3e-4, 1e-4, -0.02]] as const) {
      collide(base, place(box(0.5, 0.5, 0.5), [0.8 + dx, 1.49 + dy, 0.3], axisAngle([0.2, 1, 0.1], ang)), MARGIN, m1);
      expect([...m1.featureId.subarray(0, m1.count)].sort()).toEqual(ids0);
    }
  });

  it('stay the same for a cylinder standing on a box and a capsule lying on one', () => {
    const base = place(box(1, 1, 1), [0, 0, 0]);
    for (const [desc, y] of [[cylinder(0.3, 0.5), 1.49], [capsule(0.1, 0.5, 'x'), 1.09]] as const) {
      const m0 = manifold(), m1 = manifold();
      collide(place(desc, [0.2, y, 0.1]), base, MARGIN, m0);
      collide(place(desc, [0.2003, y - 1e-4, 0.1], axisAngle([0, 1, 0], 0.05)), base, MARGIN, m1);
      expect([...m1.featureId.subarray(0, m1.count)].sort()).toEqual([...m0.featureId.subarray(0, m0.count)].sort());
    }
  });
});

describe('determinism', () => {
  it('the same inputs give bit-identical manifolds', () => {
    const a = () => place(cylinder(0.3, 0.5), [0.13, 1.47, 0.1], axisAngle([1, 0, 1], 3));
    const b = () => place(box(1, 1, 1), [0, 0, 0], axisAngle([0, 1, 0], 11));
    const m0 = manifold(), m1 = manifold();
    collide(a(), b(), MARGIN, m0);
    collide(place(sphere(1), [0, 0, 0]), place(box(1, 1, 1), [0.5, 0, 0]), MARGIN, m1); // disturb scratch state
    collide(a(), b(), MARGIN, m1);
    expect(m1.count).toBe(m0.count);
    expect(Array.from(m1.pointA)).toEqual(Array.from(m0.pointA));
    expect(Array.from(m1.depth)).toEqual(Array.from(m0.depth));
    expect(Array.from(m1.featureId)).toEqual(Array.from(m0.featureId));
  });
});
