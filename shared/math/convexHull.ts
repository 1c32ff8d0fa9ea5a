/**
 * 3D convex hull by quickhull (incremental, with conflict lists): points → outward triangles → volume.
 *
 * Robustness: every plane test uses a tolerance scaled to the points' extent (`eps`), so duplicate,
 * coplanar and nearly coplanar points never make a face "visible" from a point that lies on it. Each
 * step replaces the connected set of faces the new point sees by a fan from its horizon, so the surface
 * stays closed whatever the tolerance decides, and the volume (divergence theorem about an interior point)
 * is always that of a closed triangle mesh. Fewer than 4 points, or all of them (within `eps`) on one
 * plane or line, have no volume: the result says `degenerate: true` with no faces and volume 0, and the
 * caller decides what to do instead.
 */
import type { ReadonlyVec3 } from './vec3';

export interface ConvexHull {
  /** Outward (counter-clockwise seen from outside) triangles, as indices into the input points. */
  faces: [number, number, number][];
  /** Indices of the input points that are hull vertices. */
  vertices: number[];
  /** Enclosed volume (units³); 0 when degenerate. */
  volume: number;
  /** Fewer than 4 distinct points, or all on a plane or a line (within the tolerance). */
  degenerate: boolean;
}

interface Face { a: number; b: number; c: number; n: [number, number, number]; d: number; outside: number[]; alive: boolean }

const DEGENERATE: ConvexHull = { faces: [], vertices: [], volume: 0, degenerate: true };

/** The convex hull of `points`. Throws on a non-finite coordinate (naming the point). */
export function convexHull(points: readonly ReadonlyVec3[]): ConvexHull {
  const n = points.length;
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    if (!(Number.isFinite(p[0]) && Number.isFinite(p[1]) && Number.isFinite(p[2]))) {
      throw new Error(`convexHull: points[${i}] is not a finite 3-vector (${String(p)})`);
    }
  }
  if (n < 4) return { ...DEGENERATE, faces: [], vertices: [] };

  // Tolerance: relative to the extent of the coordinates (as qhull and three.js's ConvexHull do, with
  // a margin so that rounding in the cross products never decides visibility).
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  const loI = [0, 0, 0], hiI = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      const v = points[i]![k]!;
      if (v < lo[k]!) { lo[k] = v; loI[k] = i; }
      if (v > hi[k]!) { hi[k] = v; hiI[k] = i; }
    }
  }
  const scaleSum = Math.max(Math.abs(lo[0]!), Math.abs(hi[0]!)) + Math.max(Math.abs(lo[1]!), Math.abs(hi[1]!)) + Math.max(Math.abs(lo[2]!), Math.abs(hi[2]!));
  const extent = Math.max(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!);
  const eps = Math.max(64 * Number.EPSILON * scaleSum, 1e-12 * extent);
  if (!(extent > eps)) return { ...DEGENERATE, faces: [], vertices: [] };

  const P = (i: number) => points[i]!;
  const sub3 = (a: ReadonlyVec3, b: ReadonlyVec3): [number, number, number] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const cross3 = (a: ReadonlyVec3, b: ReadonlyVec3): [number, number, number] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot3 = (a: ReadonlyVec3, b: ReadonlyVec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const len3 = (a: ReadonlyVec3) => Math.sqrt(dot3(a, a));

  // Initial simplex: the two axis extremes farthest apart, the point farthest from their line, the point
  // farthest from that plane.
  let i0 = 0, i1 = 0, best = -1;
  const ext = [...loI, ...hiI];
  for (const a of ext) for (const b of ext) { const d = len3(sub3(P(a), P(b))); if (d > best) { best = d; i0 = a; i1 = b; } }
  const dir = sub3(P(i1), P(i0));
  const dl = len3(dir);
  let i2 = -1; best = eps;
  for (let i = 0; i < n; i++) { const d = len3(cross3(dir, sub3(P(i), P(i0)))) / dl; if (d > best) { best = d; i2 = i; } }
  if (i2 < 0) return { ...DEGENERATE, faces: [], vertices: [] };
  const nrm0 = cross3(dir, sub3(P(i2), P(i0)));
  const nl = len3(nrm0);
  let i3 = -1; best = eps;
  for (let i = 0; i < n; i++) { const d = Math.abs(dot3(nrm0, sub3(P(i), P(i0)))) / nl; if (d > best) { best = d; i3 = i; } }
  if (i3 < 0) return { ...DEGENERATE, faces: [], vertices: [] };

  const centre: [number, number, number] = [0, 0, 0];
  for (const i of [i0, i1, i2, i3]) for (let k = 0; k < 3; k++) centre[k] = centre[k]! + P(i)[k]! / 4;

  const faces: Face[] = [];
  const edges = new Map<number, number>(); // directed edge a→b (key a·n + b) → face
  const key = (a: number, b: number) => a * n + b;
  const makeFace = (a: number, b: number, c: number): number => {
    const nr = cross3(sub3(P(b), P(a)), sub3(P(c), P(a)));
    const l = len3(nr) || 1;
    const nu: [number, number, number] = [nr[0] / l, nr[1] / l, nr[2] / l];
    // The plane through the triangle's centroid (rounding spread evenly over its corners).
    const m = [(P(a)[0] + P(b)[0] + P(c)[0]) / 3, (P(a)[1] + P(b)[1] + P(c)[1]) / 3, (P(a)[2] + P(b)[2] + P(c)[2]) / 3] as const;
    const id = faces.length;
    faces.push({ a, b, c, n: nu, d: dot3(nu, m), outside: [], alive: true });
    edges.set(key(a, b), id); edges.set(key(b, c), id); edges.set(key(c, a), id);
    return id;
  };
  const dist = (f: Face, i: number) => dot3(f.n, P(i)) - f.d;

  // The four faces of the simplex, outward from its centre.
  const tri = (a: number, b: number, c: number) => {
    const nr = cross3(sub3(P(b), P(a)), sub3(P(c), P(a)));
    return dot3(nr, sub3(centre, P(a))) < 0 ? makeFace(a, b, c) : makeFace(a, c, b);
  };
  const first = [tri(i0, i1, i2), tri(i0, i1, i3), tri(i0, i2, i3), tri(i1, i2, i3)];
  const simplex = new Set([i0, i1, i2, i3]);

  // Conflict lists: each point outside the simplex goes to the face it is farthest outside of.
  const assign = (candidates: readonly number[], pointsToPlace: Iterable<number>) => {
    for (const i of pointsToPlace) {
      let bf = -1, bd = eps;
      for (const f of candidates) { const d = dist(faces[f]!, i); if (d > bd) { bd = d; bf = f; } }
      if (bf >= 0) faces[bf]!.outside.push(i);
    }
  };
  assign(first, (function* () { for (let i = 0; i < n; i++) if (!simplex.has(i)) yield i; })());

  const pending = [...first];
  while (pending.length) {
    const fid = pending.pop()!;
    const face = faces[fid]!;
    if (!face.alive || face.outside.length === 0) continue;
    // The farthest outside point of this face.
    let apex = face.outside[0]!, ad = -Infinity;
    for (const i of face.outside) { const d = dist(face, i); if (d > ad) { ad = d; apex = i; } }
    // The connected set of faces it sees (BFS across edges).
    const visible = new Set<number>([fid]);
    const queue = [fid];
    while (queue.length) {
      const f = faces[queue.pop()!]!;
      for (const [a, b] of [[f.a, f.b], [f.b, f.c], [f.c, f.a]] as const) {
        const t = edges.get(key(b, a));
        if (t === undefined || visible.has(t)) continue;
        if (dist(faces[t]!, apex) > eps) { visible.add(t); queue.push(t); }
      }
    }
    // Horizon: edges of visible faces whose twin is not visible; the orphaned outside points.
    const horizon: [number, number][] = [];
    const orphans: number[] = [];
    for (const v of visible) {
      const f = faces[v]!;
      for (const [a, b] of [[f.a, f.b], [f.b, f.c], [f.c, f.a]] as const) {
        const t = edges.get(key(b, a));
        if (t === undefined || !visible.has(t)) horizon.push([a, b]);
      }
      for (const i of f.outside) if (i !== apex) orphans.push(i);
      f.alive = false; f.outside = [];
    }
    for (const v of visible) {
      const f = faces[v]!;
      for (const [a, b] of [[f.a, f.b], [f.b, f.c], [f.c, f.a]] as const) if (edges.get(key(a, b)) === v) edges.delete(key(a, b));
    }
    const created = horizon.map(([a, b]) => makeFace(a, b, apex));
    assign(created, orphans);
    pending.push(...created);
  }

  const out: [number, number, number][] = [];
  const used = new Set<number>();
  let volume = 0;
  for (const f of faces) {
    if (!f.alive) continue;
    out.push([f.a, f.b, f.c]);
    used.add(f.a); used.add(f.b); used.add(f.c);
    const a = sub3(P(f.a), centre), b = sub3(P(f.b), centre), c = sub3(P(f.c), centre);
    volume += dot3(a, cross3(b, c)) / 6;
  }
  return { faces: out, vertices: [...used].sort((x, y) => x - y), volume: Math.max(volume, 0), degenerate: false };
}

/** Volume of the convex hull of `points` (0 for fewer than 4, coplanar or collinear points). */
export const convexHullVolume = (points: readonly ReadonlyVec3[]): number => convexHull(points).volume;
