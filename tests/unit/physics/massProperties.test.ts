import { describe, expect, it } from 'vitest';
import { quatFromAxisAngle, quatRotate, quatConj } from '../../../shared/math/quat';
import { computeMassProperties, shapePrincipalInertia, shapeVolume } from '../../../shared/physics/massProperties';
import type { ShapeDesc } from '../../../shared/physics/types';

/** Inside test in the shape's local frame (after undoing the shape pose). */
function inside(s: ShapeDesc, p: readonly [number, number, number]): boolean {
  const q = s.rotation ?? [0, 0, 0, 1];
  const o = s.position ?? [0, 0, 0];
  const [x, y, z] = quatRotate(quatConj(q), [p[0] - o[0], p[1] - o[1], p[2] - o[2]]);
  switch (s.type) {
    case 'sphere': return x * x + y * y + z * z <= s.radius ** 2;
    case 'ellipsoid': return (x / s.radii[0]) ** 2 + (y / s.radii[1]) ** 2 + (z / s.radii[2]) ** 2 <= 1;
    case 'box': return Math.abs(x) <= s.halfExtents[0] && Math.abs(y) <= s.halfExtents[1] && Math.abs(z) <= s.halfExtents[2];
    case 'cylinder': {
      const [u, a, v] = s.axis === 'x' ? [y, x, z] : s.axis === 'z' ? [x, z, y] : [x, y, z];
      return u * u + v * v <= s.radius ** 2 && Math.abs(a) <= s.halfHeight;
    }
    case 'capsule': {
      const yc = Math.max(-s.halfHeight, Math.min(s.halfHeight, y));
      return x * x + (y - yc) ** 2 + z * z <= s.radius ** 2;
    }
  }
}

/** Midpoint-grid integration of mass, centroid and inertia over the bounding box [−R, R]³, n³ cells. */
function bruteForce(shapes: ShapeDesc[], density: number, R: number, n: number) {
  const h = (2 * R) / n, dv = h * h * h;
  let m = 0; const c = [0, 0, 0]; const S = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const pts: [number, number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) {
    const p: [number, number, number] = [-R + (i + 0.5) * h, -R + (j + 0.5) * h, -R + (k + 0.5) * h];
    if (shapes.some((s) => inside(s, p))) pts.push(p);
  }
  for (const p of pts) { m += density * dv; c[0] += p[0]; c[1] += p[1]; c[2] += p[2]; }
  c[0] /= pts.length; c[1] /= pts.length; c[2] /= pts.length;
  for (const p of pts) {
    const d = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
    const d2 = d[0]! ** 2 + d[1]! ** 2 + d[2]! ** 2;
    for (let r = 0; r < 3; r++) for (let s = 0; s < 3; s++) S[3 * r + s]! += density * dv * ((r === s ? d2 : 0) - d[r]! * d[s]!);
  }
  return { m, c, I: S };
}

describe('mass properties', () => {
  it('match the primitive formulas of seed 004 (mass 2 kg)', () => {
    const m = 2;
    expect(shapePrincipalInertia({ type: 'sphere', radius: 0.5 }, m)).toEqual([0.2, 0.2, 0.2].map((x) => expect.closeTo(x, 12)));
    expect(shapePrincipalInertia({ type: 'sphere', radius: 0.5, hollow: true }, m)[0]).toBeCloseTo((2 / 3) * m * 0.25, 12);
    const e = shapePrincipalInertia({ type: 'ellipsoid', radii: [1, 2, 3] }, m);
    expect(e[0]).toBeCloseTo((m * (4 + 9)) / 5, 12); expect(e[1]).toBeCloseTo((m * (1 + 9)) / 5, 12); expect(e[2]).toBeCloseTo((m * (1 + 4)) / 5, 12);
    const b = shapePrincipalInertia({ type: 'box', halfExtents: [0.5, 1, 1.5] }, m); // w=1, h=2, d=3
    expect(b[0]).toBeCloseTo((m * (4 + 9)) / 12, 12); expect(b[1]).toBeCloseTo((m * (1 + 9)) / 12, 12); expect(b[2]).toBeCloseTo((m * (1 + 4)) / 12, 12);
    const c = shapePrincipalInertia({ type: 'cylinder', radius: 0.5, halfHeight: 1 }, m); // h = 2
    expect(c[1]).toBeCloseTo(0.5 * m * 0.25, 12); expect(c[0]).toBeCloseTo((m * (3 * 0.25 + 4)) / 12, 12);
    const hc = shapePrincipalInertia({ type: 'cylinder', radius: 0.5, halfHeight: 1, hollow: true, axis: 'z' }, m);
    expect(hc[2]).toBeCloseTo(m * 0.25, 12); expect(hc[0]).toBeCloseTo((m * (6 * 0.25 + 4)) / 12, 12);
    expect(shapeVolume({ type: 'capsule', radius: 1, halfHeight: 1 })).toBeCloseTo(2 * Math.PI + (4 / 3) * Math.PI, 12);
  });

  it('capsule: cylinder plus hemispheres whose centroids sit 3r/8 beyond the cylinder ends', () => {
    const r = 0.3, h = 0.4, rho = 1000;
    const mp = computeMassProperties([{ type: 'capsule', radius: r, halfHeight: h }], { density: rho });
    const mc = rho * Math.PI * r * r * 2 * h, mh = rho * (2 / 3) * Math.PI * r ** 3;
    const axial = 0.5 * mc * r * r + 2 * 0.4 * mh * r * r;
    const d = h + (3 * r) / 8;
    const trans = (mc * (3 * r * r + 4 * h * h)) / 12 + 2 * (mh * (83 / 320) * r * r + mh * d * d);
    expect(mp.mass).toBeCloseTo(mc + 2 * mh, 9);
    expect(mp.inertia[4]).toBeCloseTo(axial, 9);
    expect(mp.inertia[0]).toBeCloseTo(trans, 9);
  });

  // Grid integration: 72³ cells; tolerance 2.5 % on moments (relative to the largest), 1 % on mass.
  const cases: [string, ShapeDesc[], number][] = [
    ['sphere', [{ type: 'sphere', radius: 0.5 }], 0.5],
    ['ellipsoid', [{ type: 'ellipsoid', radii: [0.3, 0.5, 0.2] }], 0.5],
    ['rotated box', [{ type: 'box', halfExtents: [0.2, 0.4, 0.1], rotation: quatFromAxisAngle([1, 2, 3], 0.7) }], 0.5],
    ['cylinder on x', [{ type: 'cylinder', radius: 0.2, halfHeight: 0.4, axis: 'x' }], 0.5],
    ["capsule", [{ type: "capsule", radius: 0.15, halfHeight: 0.3 }], 0.46],
    ['compound (parallel axis)', [
      { type: 'box', halfExtents: [0.15, 0.1, 0.1], position: [-0.2, 0, 0.05] },
      { type: 'sphere', radius: 0.15, position: [0.25, 0.1, 0] },
    ], 0.41],
  ];
  for (const [name, shapes, R] of cases) {
    it(`${name}: formulas agree with a brute-force grid integration`, () => {
      const rho = 700;
      const mp = computeMassProperties(shapes, { density: rho });
      const bf = bruteForce(shapes, rho, R, 72);
      expect(Math.abs(bf.m - mp.mass) / mp.mass).toBeLessThan(0.01);
      for (let k = 0; k < 3; k++) expect(Math.abs(bf.c[k]! - mp.centroid[k]!)).toBeLessThan(0.005);
      const scale = Math.max(...mp.inertia.map(Math.abs));
      for (let k = 0; k < 9; k++) expect(Math.abs(bf.I[k]! - mp.inertia[k]!) / scale).toBeLessThan(0.025);
    });
  }

  it('hollow shapes differ from solid ones by the shell formulas and a given mass is split by volume', () => {
    const solid = computeMassProperties([{ type: 'sphere', radius: 1 }], { mass: 3 });
    const shell = computeMassProperties([{ type: 'sphere', radius: 1, hollow: true }], { mass: 3 });
    expect(shell.inertia[0]! / solid.inertia[0]!).toBeCloseTo((2 / 3) / (2 / 5), 12);
    const two = computeMassProperties([{ type: 'box', halfExtents: [1, 1, 1], position: [-2, 0, 0] }, { type: 'box', halfExtents: [1, 1, 2], position: [2, 0, 0] }], { mass: 3 });
    expect(two.mass).toBeCloseTo(3, 12);
    expect(two.centroid[0]).toBeCloseTo((1 * -2 + 2 * 2) / 3, 12);
  });
});
