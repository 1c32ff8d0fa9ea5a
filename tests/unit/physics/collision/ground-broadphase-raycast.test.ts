import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BodyPairSet, HashGrid, RayHit, SweepAndPrune, bruteForcePairs, collideGround, createWorldShape, raycastGround, raycastShape,
  updateWorldShape, type WorldShape,
} from '../../../../shared/physics/collision';
import type { ShapeDesc } from '../../../../shared/physics/types';
import { axisAngle, checkManifoldInvariant, expectClose, manifold, place, points, sortPts } from './helpers';

describe('ground plane y = h (shape is A, normal (0, −1, 0))', () => {
  const h = 0.25, M = 0.02;
  it('sphere: one point, depth h − lowest y', () => {
    const m = manifold();
    expect(collideGround(place({ type: 'sphere', radius: 0.5 }, [1, 0.7, 2]), h, M, m)).toBe(1);
    expectClose(m.normal, [0, -1, 0], 0);
    expect(m.depth[0]).toBeCloseTo(0.05, 12);
    expectClose(points(m)[0]!, [1, 0.2, 2], 1e-12);
    expect(collideGround(place({ type: 'sphere', radius: 0.5 }, [1, 0.8, 2]), h, M, m)).toBe(0);
  });
  it('capsule lying: 2 points at its ends; standing: 1', () => {
    const m = manifold();
    expect(collideGround(place({ type: 'capsule', radius: 0.1, halfHeight: 0.4, axis: 'x' }, [0, h + 0.09, 0]), h, M, m)).toBe(2);
    checkManifoldInvariant(m);
    expect(sortPts(points(m))).toEqual([[-0.4, h - 0.01, 0], [0.4, h - 0.01, 0]].map((p) => p.map((v) => expect.closeTo(v, 12))));
    expect(collideGround(place({ type: 'capsule', radius: 0.1, halfHeight: 0.4 }, [0, h + 0.49, 0]), h, M, m)).toBe(1);
    expect(m.depth[0]).toBeCloseTo(0.01, 12);
  });
  it('box flat and rotated about y: 4 corners; tilted on an edge: 2', () => {
    const m = manifold();
    expect(collideGround(place({ type: 'box', halfExtents: [1, 0.5, 0.3] }, [0, h + 0.49, 0], axisAngle([0, 1, 0], 20)), h, M, m)).toBe(4);
    for (let i = 0; i < 4; i++) expect(m.depth[i]).toBeCloseTo(0.01, 12);
    // 45° about z: the bottom edge along z, at y = centre − √2·0.5·... (half extents 0.5, 0.5).
    const y = h + Math.SQRT2 * 0.5 - 0.01;
    expect(collideGround(place({ type: 'box', halfExtents: [0.5, 0.5, 0.3] }, [0, y, 0], axisAngle([0, 0, 1], 45)), h, M, m)).toBe(2);
    for (let i = 0; i < 2; i++) expect(m.depth[i]).toBeCloseTo(0.01, 12);
  });
  it('cylinder standing: 4 rim points; lying: 2; tilted on its rim: the true lowest point', () => {
    const m = manifold();
    const n = collideGround(place({ type: 'cylinder', radius: 0.3, halfHeight: 0.5 }, [0, h + 0.49, 0]), h, M, m);
    expect(n).toBeGreaterThanOrEqual(3);
    for (const p of points(m)) expect(Math.hypot(p[0], p[2])).toBeCloseTo(0.3, 12);
    expect(collideGround(place({ type: 'cylinder', radius: 0.3, halfHeight: 0.5, axis: 'x' }, [0, h + 0.29, 0]), h, M, m)).toBe(2);
    // Tilted 30° about x: lowest point at centre.y − (0.5 cos30 + 0.3 sin30).
    const low = 0.5 * Math.cos(Math.PI / 6) + 0.3 * Math.sin(Math.PI / 6);
    collideGround(place({ type: 'cylinder', radius: 0.3, halfHeight: 0.5 }, [0, h + low - 0.01, 0], axisAngle([1, 0, 0], 30)), h, M, m);
    expect(Math.max(...m.depth.subarray(0, m.count))).toBeCloseTo(0.01, 12);
  });
  it('ellipsoid rotated: depth from its support point', () => {
    const m = manifold();
    // Rotated 90° about z: the 0.3 semi-axis points down.
    expect(collideGround(place({ type: 'ellipsoid', radii: [0.3, 0.2, 0.1] }, [0, h + 0.29, 0], axisAngle([0, 0, 1], 90)), h, M, m)).toBe(1);
    expect(m.depth[0]).toBeCloseTo(0.01, 12);
  });
});

describe('broad phase', () => {
  const descs: ShapeDesc[] = [
    { type: 'sphere', radius: 0.3 }, { type: 'capsule', radius: 0.1, halfHeight: 0.3, axis: 'z' },
    { type: 'box', halfExtents: [0.2, 0.4, 0.3] }, { type: 'cylinder', radius: 0.2, halfHeight: 0.2 },
  ];
  const shapeArb = fc.record({
    kind: fc.integer({ min: 0, max: 3 }), x: fc.double({ min: -3, max: 3, noNaN: true }), y: fc.double({ min: -1, max: 1, noNaN: true }),
    z: fc.double({ min: -3, max: 3, noNaN: true }), ang: fc.double({ min: 0, max: 6, noNaN: true }),
    body: fc.integer({ min: 0, max: 30 }), group: fc.integer({ min: 1, max: 3 }), mask: fc.integer({ min: 0, max: 3 }), dynamic: fc.boolean(),
  });

  it('returns exactly the brute-force set of overlapping, filtered pairs, in a history-independent order', () => {
    fc.assert(fc.property(fc.array(shapeArb, { minLength: 0, maxLength: 60 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 })), { maxLength: 10 }), (specs, excl) => {
      const shapes: WorldShape[] = specs.map((s) => {
        const w = createWorldShape(descs[s.kind]!, { body: s.body, group: s.group, mask: s.mask, dynamic: s.dynamic, aabbMargin: 0.01 });
        updateWorldShape(w, [s.x, s.y, s.z], 0, axisAngle([1, 2, 3], s.ang * 57.3), 0);
        return w;
      });
      const ex = new BodyPairSet();
      for (const [a, b] of excl) ex.add(a, b);
      const sap = new SweepAndPrune();
      // Warm it with a shuffled history so its incremental order differs from a fresh one.
      const moved = shapes.map((s, i) => { const c = createWorldShape(descs[specs[i]!.kind]!, {}); updateWorldShape(c, [-s.position[0]!, 0, 0], 0, [0, 0, 0, 1], 0); return c; });
      sap.update(moved, moved.length);
      sap.update(shapes, shapes.length, ex);
      const got: Array<[number, number]> = [];
      for (let k = 0; k < sap.pairCount; k++) got.push([sap.pairs[2 * k]!, sap.pairs[2 * k + 1]!]);
      const want = bruteForcePairs(shapes, shapes.length, ex);
      const key = (p: [number, number]) => p[0] * 1000 + p[1];
      expect(got.map(key).sort((a, b) => a - b)).toEqual(want.map(key).sort((a, b) => a - b));
      const fresh = new SweepAndPrune(sap.sweepAxis as 0 | 1 | 2);
      fresh.update(shapes, shapes.length, ex);
      expect(Array.from(fresh.pairs.subarray(0, 2 * fresh.pairCount))).toEqual(Array.from(sap.pairs.subarray(0, 2 * sap.pairCount)));
    }), { numRuns: 150, seed: 7 });
  });

  it('hashed grid: exactly the brute-force set, each pair once, the same order from a fresh grid; big shapes too', () => {
    const slab: ShapeDesc = { type: 'box', halfExtents: [20, 0.5, 20] };
    fc.assert(fc.property(fc.array(shapeArb, { minLength: 0, maxLength: 60 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 })), { maxLength: 10 }), fc.integer({ min: 0, max: 2 }), (specs, excl, slabs) => {
      const shapes: WorldShape[] = specs.map((s) => {
        const w = createWorldShape(descs[s.kind]!, { body: s.body, group: s.group, mask: s.mask, dynamic: s.dynamic, aabbMargin: 0.01 });
        updateWorldShape(w, [s.x, s.y, s.z], 0, axisAngle([1, 2, 3], s.ang * 57.3), 0);
        return w;
      });
      // Slabs far larger than the cells: the "big" path (tested against everything).
      for (let k = 0; k < slabs; k++) {
        const w = createWorldShape(slab, { body: 40 + k, dynamic: k === 1 });
        updateWorldShape(w, [0, -0.4 + 0.3 * k, 0], 0, [0, 0, 0, 1], 0);
        shapes.splice(k * 7 % (shapes.length + 1), 0, w);
      }
      const ex = new BodyPairSet();
      for (const [a, b] of excl) ex.add(a, b);
      const grid = new HashGrid();
      grid.update(shapes.slice().reverse(), shapes.length); // a different history
      grid.update(shapes, shapes.length, ex);
      const got: number[] = [];
      const key = (a: number, b: number) => a * 1000 + b;
      for (let k = 0; k < grid.pairCount; k++) {
        expect(grid.pairs[2 * k]!).toBeLessThan(grid.pairs[2 * k + 1]!);
        got.push(key(grid.pairs[2 * k]!, grid.pairs[2 * k + 1]!));
      }
      const want = bruteForcePairs(shapes, shapes.length, ex).map(([a, b]) => key(a, b));
      expect(got.slice().sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b));
      const fresh = new HashGrid();
      fresh.update(shapes, shapes.length, ex);
      expect(Array.from(fresh.pairs.subarray(0, 2 * fresh.pairCount))).toEqual(Array.from(grid.pairs.subarray(0, 2 * grid.pairCount)));
    }), { numRuns: 150, seed: 11 });
  });

  it('skips same-body, static–static, masked and excluded pairs', () => {
    const mk = (x: number, opts: Parameters<typeof createWorldShape>[1]) => {
      const s = createWorldShape({ type: 'sphere', radius: 1 }, opts);
      updateWorldShape(s, [x, 0, 0], 0, [0, 0, 0, 1], 0);
      return s;
    };
    const sap = new SweepAndPrune(0);
    expect(sap.update([mk(0, { body: 1 }), mk(0.5, { body: 1 })], 2)).toBe(0);
    expect(sap.update([mk(0, { body: 1, dynamic: false }), mk(0.5, { body: 2, dynamic: false })], 2)).toBe(0);
    expect(sap.update([mk(0, { body: 1, group: 1, mask: 2 }), mk(0.5, { body: 2, group: 1, mask: 1 })], 2)).toBe(0);
    expect(sap.update([mk(0, { body: 1, group: 2, mask: 1 }), mk(0.5, { body: 2, group: 1, mask: 2 })], 2)).toBe(1);
    const ex = new BodyPairSet();
    ex.add(2, 1);
    expect(sap.update([mk(0, { body: 1 }), mk(0.5, { body: 2 })], 2, ex)).toBe(0);
    expect(sap.update([mk(0, { body: 1 }), mk(0.5, { body: 2 }), mk(1, { body: 3 })], 3, ex)).toBe(2);
  });

  it('hashed grid: a creature with self-collision off (every shape group 1, mask ~1) has no pair; one shape in group 2 taking all has its overlaps', () => {
    // 40 overlapping spheres 0.1 m apart, as Generate's rigs put their bodies (group 1, mask 0xfffffffe).
    const shapes = Array.from({ length: 40 }, (_, i) => {
      const s = createWorldShape({ type: 'sphere', radius: 0.3 }, { body: i + 1, group: 1, mask: 0xfffffffe });
      updateWorldShape(s, [0.1 * i, 0, 0], 0, [0, 0, 0, 1], 0);
      return s;
    });
    const grid = new HashGrid();
    expect(grid.update(shapes, shapes.length)).toBe(0);
    expect(bruteForcePairs(shapes, shapes.length)).toEqual([]);
    // Shape 0 moves to group 2 and takes every group: it meets the spheres whose boxes reach its own (the
    // others still mask each other out), the same pairs as the brute force.
    shapes[0]!.group = 2;
    shapes[0]!.mask = 0xffffffff;
    const n = grid.update(shapes, shapes.length);
    const expected = bruteForcePairs(shapes, shapes.length);
    expect(expected.length).toBeGreaterThanOrEqual(5);
    expect(expected.every(([a]) => a === 0)).toBe(true);
    expect(n).toBe(expected.length);
  });
});

describe('ray casts against analytic answers', () => {
  const hit = new RayHit();
  it('sphere, box (rotated), capsule side and cap, cylinder side and cap, ellipsoid, ground', () => {
    expect(raycastShape(place({ type: 'sphere', radius: 1 }, [0, 0, 5]), [0, 0, 0], [0, 0, 2], 10, hit)).toBe(true);
    expect(hit.distance).toBeCloseTo(4, 12); expectClose(hit.normal, [0, 0, -1], 1e-12);

    const b = place({ type: 'box', halfExtents: [1, 1, 1] }, [0, 0, 5], axisAngle([0, 1, 0], 45));
    expect(raycastShape(b, [0, 0, 0], [0, 0, 1], 10, hit)).toBe(true);
    expect(hit.distance).toBeCloseTo(5 - Math.SQRT2, 12);
    expect(hit.normal[2]).toBeCloseTo(-Math.SQRT1_2, 12);

    const c = place({ type: 'capsule', radius: 0.5, halfHeight: 1 }, [0, 0, 0]);
    expect(raycastShape(c, [3, 0.5, 0], [-1, 0, 0], 10, hit)).toBe(true);
    expect(hit.distance).toBeCloseTo(2.5, 12); expectClose(hit.normal, [1, 0, 0], 1e-12);
    expect(raycastShape(c, [0, 5, 0], [0, -1, 0], 10, hit)).toBe(true);
    expect(hit.distance).toBeCloseTo(3.5, 12); expectClose(hit.normal, [0, 1, 0], 1e-12);
    expect(raycastShape(c, [0.6, 5, 0], [0, -1, 0], 10, hit)).toBe(false);

    const cy = place({ type: 'cylinder', radius: 0.5, halfHeight: 1, axis: 'z' }, [0, 0, 0]);
    expect(raycastShape(cy, [0.2, 0.1, 4], [0, 0, -1], 10, hit)).toBe(true);
    expect(hit.distance).toBeCloseTo(3, 12); expectClose(hit.normal, [0, 0, 1], 1e-12);
    expect(raycastShape(cy, [0, 3, 0.9], [0, -1, 0], 10, hit)).toBe(true);
    expect(hit.distance).toBeCloseTo(2.5, 12); expectClose(hit.normal, [0, 1, 0], 1e-12);
    expect(raycastShape(cy, [0, 3, 1.1], [0, -1, 0], 10, hit)).toBe(false);

    const e = place({ type: 'ellipsoid', radii: [2, 1, 0.5] }, [0, 0, 0]);
    expect(raycastShape(e, [5, 0, 0], [-1, 0, 0], 10, hit)).toBe(true);
    expect(hit.distance).toBeCloseTo(3, 12); expectClose(hit.normal, [1, 0, 0], 1e-12);
    expect(raycastShape(e, [0, 0, 3], [0, 0, -1], 2, hit)).toBe(false); // beyond maxDistance (2.5 needed)

    expect(raycastGround(0.5, [1, 3, 2], [0, -2, 0], 10, hit)).toBe(true);
    expect(hit.distance).toBeCloseTo(2.5, 12); expectClose(hit.normal, [0, 1, 0], 0);
    expect(raycastGround(0.5, [1, 3, 2], [0, 1, 0], 10, hit)).toBe(false);
  });
  it('a ray starting inside reports distance 0; a zero direction is rejected with a clear message', () => {
    expect(raycastShape(place({ type: 'box', halfExtents: [1, 1, 1] }, [0, 0, 0]), [0.1, 0, 0], [1, 0, 0], 10, hit)).toBe(true);
    expect(hit.distance).toBe(0);
    expect(() => raycastShape(place({ type: 'sphere', radius: 1 }, [0, 0, 0]), [5, 0, 0], [0, 0, 0], 10, hit)).toThrow(/direction/);
  });
});

describe('shape validation', () => {
  it('rejects degenerate sizes naming the field', () => {
    expect(() => createWorldShape({ type: 'sphere', radius: 0 }, { label: "body 'head' shape 0" })).toThrow(/body 'head' shape 0: radius/);
    expect(() => createWorldShape({ type: 'box', halfExtents: [1, -1, 1] })).toThrow(/halfExtents\[1\]/);
    expect(() => createWorldShape({ type: 'capsule', radius: 0.1, halfHeight: Number.NaN })).toThrow(/halfHeight/);
    expect(() => createWorldShape({ type: 'cylinder', radius: 0.1, halfHeight: 1, axis: 'w' as 'x' })).toThrow(/axis/);
    expect(() => createWorldShape({ type: 'sphere', radius: 1, rotation: [0, 0, 0, 0] })).toThrow(/rotation/);
  });
  it('AABBs enclose the shape (sampled surface points) for random poses', () => {
    fc.assert(fc.property(fc.double({ min: 0, max: 6.28, noNaN: true }), fc.double({ min: 0, max: 6.28, noNaN: true }), (a1, a2) => {
      const q = axisAngle([Math.cos(a1), Math.sin(a1), 0.3], (a2 * 180) / Math.PI);
      for (const d of [{ type: 'cylinder', radius: 0.3, halfHeight: 0.7, axis: 'x' }, { type: 'ellipsoid', radii: [0.5, 0.2, 0.3] }, { type: 'capsule', radius: 0.2, halfHeight: 0.5 }] as ShapeDesc[]) {
        const s = place(d, [1, 2, 3], q);
        const hitOut = new RayHit();
        // Cast from far outside toward the centre along each axis: the hit must lie inside the AABB.
        for (const dir of [[1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, 0, 0], [0, -1, 0], [0, 0, -1]]) {
          const o = [1 - 10 * dir[0]!, 2 - 10 * dir[1]!, 3 - 10 * dir[2]!];
          expect(raycastShape(s, o, dir, 20, hitOut)).toBe(true);
          for (let k = 0; k < 3; k++) {
            expect(hitOut.point[k]).toBeGreaterThanOrEqual(s.aabb[k]! - 1e-9);
            expect(hitOut.point[k]).toBeLessThanOrEqual(s.aabb[k + 3]! + 1e-9);
          }
        }
      }
    }), { numRuns: 50, seed: 3 });
  });
});
