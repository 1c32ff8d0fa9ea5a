/**
 * Capsule (A) against box (B), exact and without GJK/EPA.
 *
 * Everything runs in the box frame: the capsule's core segment is P(t) = P0 + t·d, t ∈ [0, 1], the box is
 * |x_k| ≤ e_k. Three cases:
 * - Core outside the box: the squared distance g(t) = Σ_k max(0, |P_k(t)| − e_k)² is convex and piecewise
 *   quadratic in t, with breakpoints where |P_k(t)| = e_k (≤ 6). On each piece the active axes are fixed and
 *   the minimum is t* = Σ_active (s_k e_k − P0_k)·d_k / Σ_active d_k², clamped to the piece; the smallest g
 *   over the pieces is the exact closest pair. depth = r − √g, normal = (box point − segment point)/√g.
 * - Core crossing the box (the capsule is deeper than its radius): separating axes — the 3 face normals and
 *   the 3 crosses d × e_k — the least-penetrating one gives the normal; depth = r − separation.
 * - Face contact: when the best face axis separates the segment from the box as much as the exact closest
 *   pair does (within FACE_TOLERANCE), the segment is clipped to the face's rectangle (the two slabs
 *   |x_j| ≤ e_j, j ≠ k) and each end of the clipped part is a point at its own height above the face:
 *   2 points for a capsule lying on the face, exactly what the ground-plane routine gives on a plane.
 *
 * Feature ids: (4 << 24) | face·16 | end (end 0/1 = the clipped part's low/high t) for face points;
 * (4 << 24) | 0x100 | axis for the single point of an edge/corner/deep contact.
 */
import { addPointA, setNormal } from './manifold';
import type { ContactManifoldData, WorldShape } from './types';

/** A face axis is taken when its separation is within this of the exact one (m): a capsule lying on a face
 *  keeps its two face points instead of flickering to one edge point as it nears the face's border. */
const FACE_TOLERANCE = 1e-3;
const ID_BASE = 4 << 24;

// Scratch: breakpoints of g(t).
const breaks = new Float64Array(8);

export function capsuleBox(a: WorldShape, b: WorldShape, margin: number, out: ContactManifoldData): number {
  out.count = 0;
  const r = a.radius, h = a.halfHeight;
  const pa = a.position, ma = a.matrix, pb = b.position, m = b.matrix, e = b.halfExtents;
  const ax = a.axis;
  // Segment half-vector and centre in the box frame (Rᵀ·v).
  const ux = ma[ax]! * h, uy = ma[3 + ax]! * h, uz = ma[6 + ax]! * h;
  const wx = pa[0]! - pb[0]!, wy = pa[1]! - pb[1]!, wz = pa[2]! - pb[2]!;
  const cx = m[0]! * wx + m[3]! * wy + m[6]! * wz, cy = m[1]! * wx + m[4]! * wy + m[7]! * wz, cz = m[2]! * wx + m[5]! * wy + m[8]! * wz;
  const hx = m[0]! * ux + m[3]! * uy + m[6]! * uz, hy = m[1]! * ux + m[4]! * uy + m[7]! * uz, hz = m[2]! * ux + m[5]! * uy + m[8]! * uz;
  const p0x = cx - hx, p0y = cy - hy, p0z = cz - hz;
  const dx = 2 * hx, dy = 2 * hy, dz = 2 * hz;
  const ex = e[0]!, ey = e[1]!, ez = e[2]!;

  // Best face axis: separation of the segment's interval from the box's along each local axis.
  let faceSep = -Infinity, faceK = 0, faceS = 1;
  for (let k = 0; k < 3; k++) {
    const q0 = k === 0 ? p0x : k === 1 ? p0y : p0z, dk = k === 0 ? dx : k === 1 ? dy : dz, ek = e[k]!;
    const lo = dk >= 0 ? q0 : q0 + dk, hi = dk >= 0 ? q0 + dk : q0;
    const sPos = lo - ek, sNeg = -ek - hi;
    if (sPos > faceSep) { faceSep = sPos; faceK = k; faceS = 1; }
    if (sNeg > faceSep) { faceSep = sNeg; faceK = k; faceS = -1; }
  }
  if (faceSep > r + margin) return 0;

  // Exact separation of the core from the box (> 0 apart), with the closest pair when apart.
  let sep: number, tBest = 0;
  let qx = 0, qy = 0, qz = 0; // box point (local) of the closest pair
  const crossing = segmentCrossesBox(p0x, p0y, p0z, dx, dy, dz, ex, ey, ez);
  if (!crossing) {
    tBest = closestT(p0x, p0y, p0z, dx, dy, dz, ex, ey, ez);
    const sx = p0x + tBest * dx, sy = p0y + tBest * dy, sz = p0z + tBest * dz;
    qx = clamp(sx, ex); qy = clamp(sy, ey); qz = clamp(sz, ez);
    sep = Math.sqrt((sx - qx) * (sx - qx) + (sy - qy) * (sy - qy) + (sz - qz) * (sz - qz));
    if (sep > r + margin) return 0;
  } else {
    sep = faceSep;
  }

  if (faceSep >= sep - FACE_TOLERANCE && faceContact(a, b, p0x, p0y, p0z, dx, dy, dz, faceK, faceS, margin, out) > 0) return out.count;

  if (!crossing) {
    // Edge or corner: one point along the closest pair.
    const sx = p0x + tBest * dx, sy = p0y + tBest * dy, sz = p0z + tBest * dz;
    const inv = sep > 1e-12 ? 1 / sep : 0;
    let nx = (qx - sx) * inv, ny = (qy - sy) * inv, nz = (qz - sz) * inv;
    if (inv === 0) { nx = faceK === 0 ? -faceS : 0; ny = faceK === 1 ? -faceS : 0; nz = faceK === 2 ? -faceS : 0; }
    return singlePoint(out, a, b, sx, sy, sz, nx, ny, nz, r - sep, ID_BASE | 0x100 | 7);
  }

  // Core crossing: the edge axes d × e_k may separate less than the faces do.
  let bestSep = faceSep, bnx = faceK === 0 ? -faceS : 0, bny = faceK === 1 ? -faceS : 0, bnz = faceK === 2 ? -faceS : 0, bAxis = faceK;
  const dl = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (dl > 1e-12) {
    for (let k = 0; k < 3; k++) {
      // u = d × e_k (local), normalised.
      let vx = k === 0 ? 0 : k === 1 ? -dz : dy;
      let vy = k === 0 ? dz : k === 1 ? 0 : -dx;
      let vz = k === 0 ? -dy : k === 1 ? dx : 0;
      const vl = Math.sqrt(vx * vx + vy * vy + vz * vz);
      if (vl < 1e-6 * dl) continue;
      vx /= vl; vy /= vl; vz /= vl;
      const proj = vx * p0x + vy * p0y + vz * p0z; // same for every t: u ⟂ d
      const rb = ex * Math.abs(vx) + ey * Math.abs(vy) + ez * Math.abs(vz);
      const s = Math.abs(proj) - rb;
      if (s > bestSep + FACE_TOLERANCE) {
        const sg = proj >= 0 ? 1 : -1;
        bestSep = s; bnx = -sg * vx; bny = -sg * vy; bnz = -sg * vz; bAxis = 3 + k;
      }
    }
  }
  // Deepest segment point along the normal (toward the box): the end with the larger n·P.
  const d0 = bnx * p0x + bny * p0y + bnz * p0z, d1 = d0 + bnx * dx + bny * dy + bnz * dz;
  const t = d1 > d0 ? 1 : d0 > d1 ? 0 : 0.5;
  return singlePoint(out, a, b, p0x + t * dx, p0y + t * dy, p0z + t * dz, bnx, bny, bnz, r - bestSep, ID_BASE | 0x100 | bAxis);
}

/** Face k on side s (outward normal s·e_k): clip the segment to the face rectangle and add its ends. */
function faceContact(
  a: WorldShape, b: WorldShape, p0x: number, p0y: number, p0z: number, dx: number, dy: number, dz: number,
  k: number, s: number, margin: number, out: ContactManifoldData,
): number {
  const e = b.halfExtents, r = a.radius;
  let t0 = 0, t1 = 1;
  for (let j = 0; j < 3; j++) {
    if (j === k) continue;
    const q0 = j === 0 ? p0x : j === 1 ? p0y : p0z, dj = j === 0 ? dx : j === 1 ? dy : dz, ej = e[j]!;
    if (Math.abs(dj) < 1e-15) {
      if (q0 < -ej || q0 > ej) return 0;
      continue;
    }
    let ta = (-ej - q0) / dj, tb = (ej - q0) / dj;
    if (ta > tb) { const tt = ta; ta = tb; tb = tt; }
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (t0 > t1) return 0;
  }
  const m = b.matrix, pb = b.position;
  // Normal A → B = into the face = −s·e_k, in world.
  const nx = -s * m[k]!, ny = -s * m[3 + k]!, nz = -s * m[6 + k]!;
  setNormal(out, nx, ny, nz);
  const ek = e[k]!, face = 2 * k + (s > 0 ? 0 : 1);
  const ends = t1 - t0 > 1e-9 ? 2 : 1;
  for (let i = 0; i < ends; i++) {
    const t = i === 0 ? t0 : t1;
    const x = p0x + t * dx, y = p0y + t * dy, z = p0z + t * dz;
    const height = s * (k === 0 ? x : k === 1 ? y : z) - ek;
    const depth = r - height;
    if (depth < -margin) continue;
    // Capsule surface point: the core point moved r toward the face (local −s·e_k), then to world.
    const lx = k === 0 ? x - s * r : x, ly = k === 1 ? y - s * r : y, lz = k === 2 ? z - s * r : z;
    addPointA(out,
      pb[0]! + m[0]! * lx + m[1]! * ly + m[2]! * lz,
      pb[1]! + m[3]! * lx + m[4]! * ly + m[5]! * lz,
      pb[2]! + m[6]! * lx + m[7]! * ly + m[8]! * lz,
      depth, ID_BASE | (face << 4) | i);
  }
  return out.count;
}

/** One point: core point (local) sx, sy, sz, local unit normal A → B, depth. */
function singlePoint(
  out: ContactManifoldData, a: WorldShape, b: WorldShape, sx: number, sy: number, sz: number, nx: number, ny: number, nz: number, depth: number, id: number,
): number {
  const m = b.matrix, pb = b.position, r = a.radius;
  const wnx = m[0]! * nx + m[1]! * ny + m[2]! * nz, wny = m[3]! * nx + m[4]! * ny + m[5]! * nz, wnz = m[6]! * nx + m[7]! * ny + m[8]! * nz;
  setNormal(out, wnx, wny, wnz);
  const lx = sx + r * nx, ly = sy + r * ny, lz = sz + r * nz;
  addPointA(out,
    pb[0]! + m[0]! * lx + m[1]! * ly + m[2]! * lz,
    pb[1]! + m[3]! * lx + m[4]! * ly + m[5]! * lz,
    pb[2]! + m[6]! * lx + m[7]! * ly + m[8]! * lz,
    depth, id);
  return out.count;
}

const clamp = (x: number, e: number): number => (x < -e ? -e : x > e ? e : x);

/** Liang–Barsky: does the segment P0 + t·d, t ∈ [0, 1], meet the closed box |x_k| ≤ e_k? */
function segmentCrossesBox(p0x: number, p0y: number, p0z: number, dx: number, dy: number, dz: number, ex: number, ey: number, ez: number): boolean {
  let t0 = 0, t1 = 1;
  for (let k = 0; k < 3; k++) {
    const q = k === 0 ? p0x : k === 1 ? p0y : p0z, d = k === 0 ? dx : k === 1 ? dy : dz, ek = k === 0 ? ex : k === 1 ? ey : ez;
    if (Math.abs(d) < 1e-15) { if (q < -ek || q > ek) return false; continue; }
    let ta = (-ek - q) / d, tb = (ek - q) / d;
    if (ta > tb) { const t = ta; ta = tb; tb = t; }
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (t0 > t1) return false;
  }
  return true;
}

/** t ∈ [0, 1] minimising g(t) = Σ_k max(0, |P_k(t)| − e_k)² (see the file comment). */
function closestT(p0x: number, p0y: number, p0z: number, dx: number, dy: number, dz: number, ex: number, ey: number, ez: number): number {
  let nb = 0;
  breaks[nb++] = 0;
  for (let k = 0; k < 3; k++) {
    const q = k === 0 ? p0x : k === 1 ? p0y : p0z, d = k === 0 ? dx : k === 1 ? dy : dz, ek = k === 0 ? ex : k === 1 ? ey : ez;
    if (Math.abs(d) < 1e-15) continue;
    const ta = (-ek - q) / d, tb = (ek - q) / d;
    if (ta > 0 && ta < 1) breaks[nb++] = ta;
    if (tb > 0 && tb < 1) breaks[nb++] = tb;
  }
  breaks[nb++] = 1;
  // Insertion sort (≤ 8 values).
  for (let i = 1; i < nb; i++) {
    const v = breaks[i]!;
    let j = i - 1;
    while (j >= 0 && breaks[j]! > v) { breaks[j + 1] = breaks[j]!; j--; }
    breaks[j + 1] = v;
  }
  let bestT = 0, bestG = Infinity;
  for (let i = 0; i + 1 < nb; i++) {
    const lo = breaks[i]!, hi = breaks[i + 1]!;
    const mid = 0.5 * (lo + hi);
    // Active axes and their sides at the middle of the piece.
    let num = 0, den = 0;
    for (let k = 0; k < 3; k++) {
      const q = k === 0 ? p0x : k === 1 ? p0y : p0z, d = k === 0 ? dx : k === 1 ? dy : dz, ek = k === 0 ? ex : k === 1 ? ey : ez;
      const v = q + mid * d;
      if (v > ek) { num += (ek - q) * d; den += d * d; }
      else if (v < -ek) { num += (-ek - q) * d; den += d * d; }
    }
    let t = den > 0 ? num / den : mid;
    if (t < lo) t = lo; else if (t > hi) t = hi;
    const g = gapSquared(p0x + t * dx, p0y + t * dy, p0z + t * dz, ex, ey, ez);
    if (g < bestG) { bestG = g; bestT = t; }
  }
  return bestT;
}

function gapSquared(x: number, y: number, z: number, ex: number, ey: number, ez: number): number {
  const gx = x > ex ? x - ex : x < -ex ? -ex - x : 0;
  const gy = y > ey ? y - ey : y < -ey ? -ey - y : 0;
  const gz = z > ez ? z - ez : z < -ez ? -ez - z : 0;
  return gx * gx + gy * gy + gz * gz;
}
