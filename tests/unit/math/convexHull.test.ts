import { describe, expect, it } from 'vitest';
import { convexHull, convexHullVolume } from '../../../shared/math/convexHull';
import type { Vec3 } from '../../../shared/math/vec3';
import { rng } from '../physics/helpers';

const cubeCorners = (a: number, o: Vec3 = [0, 0, 0]): Vec3[] => {
  const out: Vec3[] = [];
  for (const x of [0, a]) for (const y of [0, a]) for (const z of [0, a]) out.push([o[0] + x, o[1] + y, o[2] + z]);
  return out;
};

/** Every input point lies inside or on every face plane, and every directed edge has its reverse. */
function expectClosedConvex(points: readonly Vec3[], tol: number): void {
  const h = convexHull(points);
  const edges = new Set(h.faces.flatMap(([a, b, c]) => [`${a},${b}`, `${b},${c}`, `${c},${a}`]));
  for (const e of edges) { const [a, b] = e.split(','); expect(edges.has(`${b},${a}`)).toBe(true); }
  let worst = -Infinity;
  for (const [a, b, c] of h.faces) {
    const A = points[a]!, B = points[b]!, C = points[c]!;
    const u = [B[0] - A[0], B[1] - A[1], B[2] - A[2]], v = [C[0] - A[0], C[1] - A[1], C[2] - A[2]];
    const nrm = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    const l = Math.hypot(nrm[0]!, nrm[1]!, nrm[2]!);
    if (l < 1e-12) continue;
    for (const p of points) worst = Math.max(worst, ((p[0] - A[0]) * nrm[0]! + (p[1] - A[1]) * nrm[1]! + (p[2] - A[2]) * nrm[2]!) / l);
  }
  expect(worst).toBeLessThan(tol);
}

describe('convexHull', () => {
  it('cube of side a: volume a³ within 1e-12 (corners only, with interior, duplicate and face points)', () => {
    for (const a of [1, 0.37, 12.5]) {
      expect(Math.abs(convexHullVolume(cubeCorners(a)) - a ** 3)).toBeLessThan(1e-12 * Math.max(1, a ** 3));
      const r = rng(7);
      const pts = [...cubeCorners(a), ...cubeCorners(a)];
      for (let i = 0; i < 300; i++) pts.push([r() * a, r() * a, r() * a]);
      // Points on the faces and edges (coplanar with hull faces).
      for (let i = 0; i < 100; i++) pts.push([r() * a, r() * a, 0], [a, r() * a, r() * a], [0, r() * a, a], [r() * a, a, a]);
      const h = convexHull(pts);
      expect(h.degenerate).toBe(false);
      expect(Math.abs(h.volume - a ** 3)).toBeLessThan(1e-12 * Math.max(1, a ** 3));
      expectClosedConvex(pts, 1e-9 * a);
    }
  });

  it('a 6×6×6 grid (every point coplanar with others) far from the origin: a³', () => {
    const pts: Vec3[] = [];
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) for (let k = 0; k < 6; k++) pts.push([1000 + i * 0.2, -500 + j * 0.2, 250 + k * 0.2]);
    const h = convexHull(pts);
    expect(Math.abs(h.volume - 1)).toBeLessThan(1e-9);
    expect(h.vertices.every((i) => pts[i]!.every((c, k) => Math.abs(c - [1000, -500, 250][k]!) < 1e-9 || Math.abs(c - [1001, -499, 251][k]!) < 1e-9))).toBe(true);
    expectClosedConvex(pts, 1e-9);
  });

  it('a tetrahedron: |det| / 6, 4 faces, in either orientation', () => {
    const t: Vec3[] = [[0.1, 0.2, 0.3], [2.1, 0.4, -0.3], [0.5, 1.9, 0.2], [0.7, 0.6, 1.8]];
    const u = t.slice(1).map((p) => [p[0] - t[0]![0], p[1] - t[0]![1], p[2] - t[0]![2]]);
    const det = u[0]![0]! * (u[1]![1]! * u[2]![2]! - u[1]![2]! * u[2]![1]!) - u[0]![1]! * (u[1]![0]! * u[2]![2]! - u[1]![2]! * u[2]![0]!) + u[0]![2]! * (u[1]![0]! * u[2]![1]! - u[1]![1]! * u[2]![0]!);
    for (const pts of [t, [t[1]!, t[0]!, t[2]!, t[3]!]]) {
      const h = convexHull(pts);
      expect(h.faces).toHaveLength(4);
      expect(h.vertices).toEqual([0, 1, 2, 3]);
      expect(Math.abs(h.volume - Math.abs(det) / 6)).toBeLessThan(1e-14);
    }
  });

  it('random points on a unit sphere: the mean hull volume is (4π/3)(N-1)(N-2)(N-3) / ((N+1)(N+2)(N+3))', () => {
    // Buchta, Müller & Tichy (1985): the expected volume of the hull of N uniform points on the unit
    // sphere (N = 4: 4π/105, the mean inscribed tetrahedron); it misses ~12/N of the ball.
    const r = rng(42);
    const V = (4 / 3) * Math.PI;
    const sphere = (count: number): Vec3[] => Array.from({ length: count }, () => {
      const z = 2 * r() - 1, phi = 2 * Math.PI * r(), s = Math.sqrt(1 - z * z);
      return [s * Math.cos(phi), s * Math.sin(phi), z];
    });
    const expected = (N: number) => (V * (N - 1) * (N - 2) * (N - 3)) / ((N + 1) * (N + 2) * (N + 3));
    for (const [N, trials] of [[4, 4000], [100, 40], [1000, 6]] as const) {
      let sum = 0;
      for (let t = 0; t < trials; t++) {
        const v = convexHullVolume(sphere(N));
        expect(v).toBeLessThan(V);
        sum += v;
      }
      // Within 4 % of the expected missing volume (the sample means' spread is ~1-2 %).
      expect(Math.abs(sum / trials - expected(N))).toBeLessThan(0.04 * (V - expected(N)));
    }
    // Uniform points in the ball with its surface sampled too: every point inside, 4π/3 from below.
    const ball: Vec3[] = [...sphere(3000)];
    for (let i = 0; i < 3000; i++) { const p = sphere(1)[0]!, k = Math.cbrt(r()); ball.push([p[0] * k, p[1] * k, p[2] * k]); }
    const vb = convexHullVolume(ball);
    expect(vb).toBeLessThan(V);
    expect(1 - vb / V).toBeLessThan(0.005);
    expectClosedConvex(ball, 1e-9);
  });

  it('a regular icosahedron of circumradius 1: (5/12)(3 + √5) a³', () => {
    const t = (1 + Math.sqrt(5)) / 2, k = 1 / Math.sqrt(1 + t * t);
    const pts: Vec3[] = [];
    for (const s1 of [-1, 1]) for (const s2 of [-1, 1]) pts.push([0, s1 * k, s2 * t * k], [s1 * k, s2 * t * k, 0], [s2 * t * k, 0, s1 * k]);
    const a = 2 * k;
    const h = convexHull(pts);
    expect(h.faces).toHaveLength(20);
    expect(Math.abs(h.volume - (5 / 12) * (3 + Math.sqrt(5)) * a ** 3)).toBeLessThan(1e-13);
  });

  it('degenerate inputs give volume 0 and say so', () => {
    for (const pts of [
      [] as Vec3[],
      [[0, 0, 0]] as Vec3[],
      [[0, 0, 0], [1, 0, 0], [0, 1, 0]] as Vec3[],
      Array.from({ length: 50 }, () => [1, 2, 3] as Vec3), // all duplicates
      Array.from({ length: 50 }, (_, i) => [i * 0.1, i * 0.2, -i * 0.3] as Vec3), // collinear
      Array.from({ length: 100 }, (_, i) => [Math.cos(i), Math.sin(i * 1.7), 0.5 * Math.cos(i) + 0.25 * Math.sin(i * 1.7)] as Vec3), // coplanar
    ]) {
      const h = convexHull(pts);
      expect(h.degenerate).toBe(true);
      expect(h.volume).toBe(0);
      expect(h.faces).toEqual([]);
    }
    // A nearly flat slab keeps its (tiny) volume: 1 × 1 × 1e-6.
    const slab: Vec3[] = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1e-6], [1, 0, 1e-6], [0, 1, 1e-6], [1, 1, 1e-6]];
    expect(Math.abs(convexHullVolume(slab) - 1e-6)).toBeLessThan(1e-15);
  });

  it('rejects a non-finite coordinate, naming the point', () => {
    expect(() => convexHull([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, Number.NaN]])).toThrow(/points\[3\]/);
  });
});
