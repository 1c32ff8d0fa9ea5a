/**
 * Sphere–box and box–box.
 *
 * Box–box is the separating-axis test over the 15 axes (3 face normals of each box, 9 edge×edge
 * crosses), separation on axis L: s = |T·L| − (Σ eA_i|a_i·L| + Σ eB_j|b_j·L|), T = centre B − centre A.
 * The axis with the largest s wins, with a bias toward A's faces, then B's faces, then edges (a candidate
 * must beat the best by 5 % + 1 % of the smallest half extent) so resting boxes keep one reference face
 * and their feature ids from step to step. A face axis: the incident face of the other box (the one most
 * anti-parallel to the reference normal) is clipped against the reference face's 4 side planes
 * (Sutherland–Hodgman), points within the margin are kept, and more than 4 are reduced to 4 (deepest
 * first, then the ones spanning the largest area). An edge axis: one point at the closest points of the
 * two edges.
 */
import { addPointA, addPointB, setNormal } from './manifold';
import type { ContactManifoldData, WorldShape } from './types';

/** A = sphere, B = box. Feature id: the Voronoi region of the box (face, edge or corner) as base-3 digits
 *  of the clamped coordinates. */
export function sphereBox(a: WorldShape, b: WorldShape, margin: number, out: ContactManifoldData): number {
  out.count = 0;
  const c = a.position, p = b.position, m = b.matrix, e = b.halfExtents, r = a.radius;
  const dx = c[0]! - p[0]!, dy = c[1]! - p[1]!, dz = c[2]! - p[2]!;
  // Sphere centre in the box frame: Rᵀ·d.
  const lx = m[0]! * dx + m[3]! * dy + m[6]! * dz;
  const ly = m[1]! * dx + m[4]! * dy + m[7]! * dz;
  const lz = m[2]! * dx + m[5]! * dy + m[8]! * dz;
  const ex = e[0]!, ey = e[1]!, ez = e[2]!;
  const qx = lx < -ex ? -ex : lx > ex ? ex : lx;
  const qy = ly < -ey ? -ey : ly > ey ? ey : ly;
  const qz = lz < -ez ? -ez : lz > ez ? ez : lz;
  const id = region(lx, ex) + 3 * region(ly, ey) + 9 * region(lz, ez);
  const gx = lx - qx, gy = ly - qy, gz = lz - qz;
  const d2 = gx * gx + gy * gy + gz * gz;
  if (d2 > 0) {
    // Centre outside: normal from the sphere to its closest point on the box, −(l − q)/|l − q|.
    if (d2 > (r + margin) * (r + margin)) return 0;
    const d = Math.sqrt(d2);
    const nx = -gx / d, ny = -gy / d, nz = -gz / d;
    setNormal(out, m[0]! * nx + m[1]! * ny + m[2]! * nz, m[3]! * nx + m[4]! * ny + m[5]! * nz, m[6]! * nx + m[7]! * ny + m[8]! * nz);
    const wx = p[0]! + m[0]! * qx + m[1]! * qy + m[2]! * qz;
    const wy = p[1]! + m[3]! * qx + m[4]! * qy + m[5]! * qz;
    const wz = p[2]! + m[6]! * qx + m[7]! * qy + m[8]! * qz;
    addPointB(out, wx, wy, wz, r - d, id);
    return 1;
  }
  // Centre inside: push out through the nearest face. Ties go to the lower axis index.
  let k = 0, best = ex - Math.abs(lx);
  const fy = ey - Math.abs(ly), fz = ez - Math.abs(lz);
  if (fy < best) { k = 1; best = fy; }
  if (fz < best) { k = 2; best = fz; }
  const lk = k === 0 ? lx : k === 1 ? ly : lz;
  const sg = lk >= 0 ? 1 : -1;
  // Outward face normal is sg·axis_k; the normal from sphere to box is its opposite.
  setNormal(out, -sg * m[k]!, -sg * m[3 + k]!, -sg * m[6 + k]!);
  const n = out.normal;
  addPointA(out, c[0]! + r * n[0]!, c[1]! + r * n[1]!, c[2]! + r * n[2]!, r + best, 27 + 2 * k + (sg > 0 ? 1 : 0));
  return 1;
}

const region = (x: number, e: number): number => (x < -e ? 0 : x > e ? 2 : 1);

// ------------------------------------------------------------------------------------------- box–box

const REL_TOL = 0.95;
const ABS_TOL = 0.01;

// Scratch polygons for clipping: up to 8 vertices (a quad clipped by 4 planes), xyz + feature id.
const polyA = new Float64Array(8 * 3), polyB = new Float64Array(8 * 3);
const idA = new Int32Array(8), idB = new Int32Array(8);
const lineA = new Int32Array(8), lineB = new Int32Array(8);
const keepDepth = new Float64Array(8);
const keepIdx = new Int32Array(8);
const chosen = new Int32Array(4);

export function boxBox(a: WorldShape, b: WorldShape, margin: number, out: ContactManifoldData): number {
  out.count = 0;
  const A = a.matrix, B = b.matrix, ea = a.halfExtents, eb = b.halfExtents;
  const tx = b.position[0]! - a.position[0]!, ty = b.position[1]! - a.position[1]!, tz = b.position[2]! - a.position[2]!;
  // C = AᵀB: C_ij = a_i·b_j; and T in A's frame.
  const c00 = A[0]! * B[0]! + A[3]! * B[3]! + A[6]! * B[6]!, c01 = A[0]! * B[1]! + A[3]! * B[4]! + A[6]! * B[7]!, c02 = A[0]! * B[2]! + A[3]! * B[5]! + A[6]! * B[8]!;
  const c10 = A[1]! * B[0]! + A[4]! * B[3]! + A[7]! * B[6]!, c11 = A[1]! * B[1]! + A[4]! * B[4]! + A[7]! * B[7]!, c12 = A[1]! * B[2]! + A[4]! * B[5]! + A[7]! * B[8]!;
  const c20 = A[2]! * B[0]! + A[5]! * B[3]! + A[8]! * B[6]!, c21 = A[2]! * B[1]! + A[5]! * B[4]! + A[8]! * B[7]!, c22 = A[2]! * B[2]! + A[5]! * B[5]! + A[8]! * B[8]!;
  const C = cScratch;
  C[0] = c00; C[1] = c01; C[2] = c02; C[3] = c10; C[4] = c11; C[5] = c12; C[6] = c20; C[7] = c21; C[8] = c22;
  const Ab = absScratch;
  // (Near-)parallel edge pairs are skipped below, so no epsilon is needed here to keep depths exact.
  for (let i = 0; i < 9; i++) Ab[i] = Math.abs(C[i]!);
  const ta0 = A[0]! * tx + A[3]! * ty + A[6]! * tz, ta1 = A[1]! * tx + A[4]! * ty + A[7]! * tz, ta2 = A[2]! * tx + A[5]! * ty + A[8]! * tz;
  const ea0 = ea[0]!, ea1 = ea[1]!, ea2 = ea[2]!, eb0 = eb[0]!, eb1 = eb[1]!, eb2 = eb[2]!;
  const tol = ABS_TOL * Math.min(ea0, ea1, ea2, eb0, eb1, eb2);

  // Axis codes: 0..2 A's faces, 3..5 B's faces, 6 + 3i + j edge a_i × b_j.
  let bestAxis = -1, best = -Infinity;
  // A's faces: s = |T·a_i| − (e_ai + Σ_j e_bj |C_ij|)
  for (let i = 0; i < 3; i++) {
    const t = i === 0 ? ta0 : i === 1 ? ta1 : ta2;
    const s = Math.abs(t) - (ea[i]! + eb0 * Ab[3 * i]! + eb1 * Ab[3 * i + 1]! + eb2 * Ab[3 * i + 2]!);
    if (s > margin) return 0;
    if (s > best) { best = s; bestAxis = i; }
  }
  // B's faces: T·b_j = Σ_i C_ij (T·a_i)
  for (let j = 0; j < 3; j++) {
    const t = C[j]! * ta0 + C[3 + j]! * ta1 + C[6 + j]! * ta2;
    const s = Math.abs(t) - (eb[j]! + ea0 * Ab[j]! + ea1 * Ab[3 + j]! + ea2 * Ab[6 + j]!);
    if (s > margin) return 0;
    if (s > REL_TOL * best + tol) { best = s; bestAxis = 3 + j; }
  }
  // Edge axes a_i × b_j expressed in A's frame (Ericson §4.4.1), normalised so s is a distance.
  let edgeBest = -Infinity, edgeAxis = -1;
  for (let i = 0; i < 3; i++) {
    const i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (let j = 0; j < 3; j++) {
      const j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      // L = a_i × b_j has A-frame components: L_i = 0, L_i1 = −C_i2j, L_i2 = C_i1j.
      const len = Math.sqrt(C[3 * i1 + j]! * C[3 * i1 + j]! + C[3 * i2 + j]! * C[3 * i2 + j]!);
      if (len < 1e-6) continue; // parallel edges: the face axes already cover this direction
      const t = ta2i(i2, ta0, ta1, ta2) * C[3 * i1 + j]! - ta2i(i1, ta0, ta1, ta2) * C[3 * i2 + j]!;
      const ra = ea[i1]! * Ab[3 * i2 + j]! + ea[i2]! * Ab[3 * i1 + j]!;
      const rb = eb[j1]! * Ab[3 * i + j2]! + eb[j2]! * Ab[3 * i + j1]!;
      const s = (Math.abs(t) - (ra + rb)) / len;
      if (s > margin) return 0;
      if (s > edgeBest) { edgeBest = s; edgeAxis = 6 + 3 * i + j; }
    }
  }
  if (edgeAxis >= 0 && edgeBest > REL_TOL * best + tol) return boxEdgeEdge(a, b, edgeAxis - 6, edgeBest, out);
  if (bestAxis < 3) return boxFace(a, b, bestAxis, false, margin, out);
  return boxFace(b, a, bestAxis - 3, true, margin, out);
}

const cScratch = new Float64Array(9);
const absScratch = new Float64Array(9);
const ta2i = (i: number, t0: number, t1: number, t2: number): number => (i === 0 ? t0 : i === 1 ? t1 : t2);

/** Face contact with reference box R (face axis k) and incident box I. `flipped` = R is shape B. */
function boxFace(R: WorldShape, I: WorldShape, k: number, flipped: boolean, margin: number, out: ContactManifoldData): number {
  const MR = R.matrix, MI = I.matrix, er = R.halfExtents, ei = I.halfExtents;
  const pr = R.position, pi = I.position;
  // Reference normal: R's axis k, oriented from R toward I.
  let nx = MR[k]!, ny = MR[3 + k]!, nz = MR[6 + k]!;
  let refSign = 1;
  if (nx * (pi[0]! - pr[0]!) + ny * (pi[1]! - pr[1]!) + nz * (pi[2]! - pr[2]!) < 0) { nx = -nx; ny = -ny; nz = -nz; refSign = -1; }
  // Incident face: I's axis most anti-parallel to n.
  let fk = 0, fbest = -1;
  for (let j = 0; j < 3; j++) {
    const d = Math.abs(MI[j]! * nx + MI[3 + j]! * ny + MI[6 + j]! * nz);
    if (d > fbest + 1e-12) { fbest = d; fk = j; }
  }
  const fs = MI[fk]! * nx + MI[3 + fk]! * ny + MI[6 + fk]! * nz > 0 ? -1 : 1;
  // Incident face centre and its two in-plane half-axes.
  const f1 = (fk + 1) % 3, f2 = (fk + 2) % 3;
  const fcx = pi[0]! + fs * ei[fk]! * MI[fk]!, fcy = pi[1]! + fs * ei[fk]! * MI[3 + fk]!, fcz = pi[2]! + fs * ei[fk]! * MI[6 + fk]!;
  const ux = ei[f1]! * MI[f1]!, uy = ei[f1]! * MI[3 + f1]!, uz = ei[f1]! * MI[6 + f1]!;
  const vx = ei[f2]! * MI[f2]!, vy = ei[f2]! * MI[3 + f2]!, vz = ei[f2]! * MI[6 + f2]!;
  // Quad in order (+u+v), (−u+v), (−u−v), (+u−v); vertex ids 0..3.
  for (let q = 0; q < 4; q++) {
    const su = q === 0 || q === 3 ? 1 : -1, sv = q < 2 ? 1 : -1;
    polyA[3 * q] = fcx + su * ux + sv * vx;
    polyA[3 * q + 1] = fcy + su * uy + sv * vy;
    polyA[3 * q + 2] = fcz + su * uz + sv * vz;
    idA[q] = q;
    lineA[q] = q;
  }
  let count = 4;
  let src = polyA, dst = polyB, sid = idA, did = idB, sl = lineA, dl = lineB;
  // Clip against the reference face's side planes: ±axis r of R (r ≠ k), |(x − pR)·axis_r| ≤ e_r.
  for (let side = 0; side < 4; side++) {
    const r = side < 2 ? (k + 1) % 3 : (k + 2) % 3;
    const sg = side & 1 ? -1 : 1;
    const ax = sg * MR[r]!, ay = sg * MR[3 + r]!, az = sg * MR[6 + r]!;
    const off = ax * pr[0]! + ay * pr[1]! + az * pr[2]! + er[r]!;
    count = clipPolygon(src, sid, sl, count, dst, did, dl, ax, ay, az, off, side);
    if (count === 0) return 0;
    const t = src; src = dst; dst = t;
    const ti = sid; sid = did; did = ti;
    const tl = sl; sl = dl; dl = tl;
  }
  // Depth of each clipped point below the reference face plane.
  const faceOff = nx * pr[0]! + ny * pr[1]! + nz * pr[2]! + er[k]!;
  let kept = 0;
  for (let q = 0; q < count; q++) {
    const sep = nx * src[3 * q]! + ny * src[3 * q + 1]! + nz * src[3 * q + 2]! - faceOff;
    if (sep <= margin) { keepIdx[kept] = q; keepDepth[kept] = -sep; kept++; }
  }
  if (kept === 0) return 0;
  if (kept > 4) kept = reduceToFour(src, kept);
  else for (let q = 0; q < kept; q++) chosen[q] = q;
  // Contact normal A → B: n when R is A, −n when R is B.
  if (flipped) setNormal(out, -nx, -ny, -nz); else setNormal(out, nx, ny, nz);
  const faceId = (flipped ? 1 << 15 : 0) | ((2 * k + (refSign > 0 ? 0 : 1)) << 11) | ((2 * fk + (fs > 0 ? 0 : 1)) << 8);
  for (let c = 0; c < kept; c++) {
    const q = keepIdx[chosen[c]!]!;
    const x = src[3 * q]!, y = src[3 * q + 1]!, z = src[3 * q + 2]!, d = keepDepth[chosen[c]!]!;
    const id = faceId | sid[q]!;
    // The clipped point lies on I's surface. I is B when R is A (not flipped).
    if (flipped) addPointA(out, x, y, z, d, id); else addPointB(out, x, y, z, d, id);
  }
  return out.count;
}

/**
 * Sutherland–Hodgman against the half-space p·a ≤ off. Feature ids: each vertex is the meeting point of
 * two lines — incident quad edges 0..3 or reference side planes 4..7 — and `line` holds the line of the
 * edge leaving it. An original corner keeps id 0..3; a vertex made on side plane `side` from an edge on
 * line L gets 0x40 | L<<2 | side, which names the same point for as long as that edge crosses that plane.
 */
function clipPolygon(
  src: Float64Array, sid: Int32Array, sl: Int32Array, n: number, dst: Float64Array, did: Int32Array, dl: Int32Array,
  ax: number, ay: number, az: number, off: number, side: number,
): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const px = src[3 * i]!, py = src[3 * i + 1]!, pz = src[3 * i + 2]!;
    const qx = src[3 * j]!, qy = src[3 * j + 1]!, qz = src[3 * j + 2]!;
    const dp = ax * px + ay * py + az * pz - off, dq = ax * qx + ay * qy + az * qz - off;
    if (dp <= 0 && m < 8) {
      dst[3 * m] = px; dst[3 * m + 1] = py; dst[3 * m + 2] = pz; did[m] = sid[i]!; dl[m] = sl[i]!; m++;
    }
    if (((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) && m < 8) {
      const t = dp / (dp - dq);
      dst[3 * m] = px + t * (qx - px); dst[3 * m + 1] = py + t * (qy - py); dst[3 * m + 2] = pz + t * (qz - pz);
      did[m] = 0x40 | (sl[i]! << 2) | side;
      // Leaving the half-space: the next edge runs along the clip plane; entering: along the old edge.
      dl[m] = dp < 0 ? 4 + side : sl[i]!;
      m++;
    }
  }
  return m;
}

/**
 * Pick 4 of the n kept points (indices into keepIdx/keepDepth) into `chosen`: the deepest, the one farthest
 * from it, the one making the largest triangle with those two, and the one adding the most area on the
 * other side. Ties keep the lower index (deterministic). Returns 4.
 */
function reduceToFour(poly: Float64Array, n: number): number {
  let i0 = 0;
  for (let i = 1; i < n; i++) if (keepDepth[i]! > keepDepth[i0]! + 1e-9) i0 = i;
  const P = (i: number, c: number): number => poly[3 * keepIdx[i]! + c]!;
  let i1 = -1, bd = -1;
  for (let i = 0; i < n; i++) {
    if (i === i0) continue;
    const dx = P(i, 0) - P(i0, 0), dy = P(i, 1) - P(i0, 1), dz = P(i, 2) - P(i0, 2);
    const d = dx * dx + dy * dy + dz * dz;
    if (d > bd) { bd = d; i1 = i; }
  }
  // Signed area against a fixed normal (the triangle normal found first) lets us pick both sides.
  const ex = P(i1, 0) - P(i0, 0), ey = P(i1, 1) - P(i0, 1), ez = P(i1, 2) - P(i0, 2);
  let i2 = -1, i3 = -1, amax = 0, amin = 0, rx = 0, ry = 0, rz = 0;
  for (let i = 0; i < n; i++) {
    if (i === i0 || i === i1) continue;
    const fx = P(i, 0) - P(i0, 0), fy = P(i, 1) - P(i0, 1), fz = P(i, 2) - P(i0, 2);
    const cx = ey * fz - ez * fy, cy = ez * fx - ex * fz, cz = ex * fy - ey * fx;
    const a = cx * cx + cy * cy + cz * cz;
    if (a > amax) { amax = a; i2 = i; rx = cx; ry = cy; rz = cz; }
  }
  for (let i = 0; i < n; i++) {
    if (i === i0 || i === i1 || i === i2) continue;
    const fx = P(i, 0) - P(i0, 0), fy = P(i, 1) - P(i0, 1), fz = P(i, 2) - P(i0, 2);
    const s = rx * (ey * fz - ez * fy) + ry * (ez * fx - ex * fz) + rz * (ex * fy - ey * fx);
    if (s < amin) { amin = s; i3 = i; }
  }
  chosen[0] = i0; chosen[1] = i1;
  let c = 2;
  if (i2 >= 0) chosen[c++] = i2;
  if (i3 >= 0) chosen[c++] = i3;
  // Fill up (collinear or duplicate points) with the remaining lowest indices.
  for (let i = 0; i < n && c < 4; i++) if (i !== i0 && i !== i1 && i !== i2 && i !== i3) chosen[c++] = i;
  return c;
}

/** Edge–edge contact on axis a_i × b_j (in world, oriented A → B), one point at the edges' closest
 *  points. `sep` is the (negative) separation on that axis. */
function boxEdgeEdge(a: WorldShape, b: WorldShape, ij: number, sep: number, out: ContactManifoldData): number {
  const i = (ij / 3) | 0, j = ij % 3;
  const A = a.matrix, B = b.matrix, ea = a.halfExtents, eb = b.halfExtents, pa = a.position, pb = b.position;
  const aix = A[i]!, aiy = A[3 + i]!, aiz = A[6 + i]!, bjx = B[j]!, bjy = B[3 + j]!, bjz = B[6 + j]!;
  let nx = aiy * bjz - aiz * bjy, ny = aiz * bjx - aix * bjz, nz = aix * bjy - aiy * bjx;
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  nx /= l; ny /= l; nz /= l;
  if (nx * (pb[0]! - pa[0]!) + ny * (pb[1]! - pa[1]!) + nz * (pb[2]! - pa[2]!) < 0) { nx = -nx; ny = -ny; nz = -nz; }
  // A's edge: the one along a_i that is furthest along +n; B's: along b_j furthest along −n.
  let ax = pa[0]!, ay = pa[1]!, az = pa[2]!, bx = pb[0]!, by = pb[1]!, bz = pb[2]!;
  let signsA = 0, signsB = 0;
  for (let k = 0; k < 3; k++) {
    if (k !== i) {
      const s = A[k]! * nx + A[3 + k]! * ny + A[6 + k]! * nz > 0 ? 1 : -1;
      ax += s * ea[k]! * A[k]!; ay += s * ea[k]! * A[3 + k]!; az += s * ea[k]! * A[6 + k]!;
      if (s > 0) signsA |= 1 << k;
    }
    if (k !== j) {
      const s = B[k]! * nx + B[3 + k]! * ny + B[6 + k]! * nz > 0 ? -1 : 1;
      bx += s * eb[k]! * B[k]!; by += s * eb[k]! * B[3 + k]!; bz += s * eb[k]! * B[6 + k]!;
      if (s > 0) signsB |= 1 << k;
    }
  }
  // Closest points of the lines ax + s·a_i and bx + t·b_j, clamped to the edges' half lengths.
  const rx = ax - bx, ry = ay - by, rz = az - bz;
  const bb = aix * bjx + aiy * bjy + aiz * bjz;
  const c = aix * rx + aiy * ry + aiz * rz, f = bjx * rx + bjy * ry + bjz * rz;
  const den = 1 - bb * bb;
  let s = den > 1e-12 ? (bb * f - c) / den : 0;
  s = Math.max(-ea[i]!, Math.min(ea[i]!, s));
  let t = bb * s + f;
  t = Math.max(-eb[j]!, Math.min(eb[j]!, t));
  s = Math.max(-ea[i]!, Math.min(ea[i]!, bb * t - c));
  setNormal(out, nx, ny, nz);
  const px = ax + s * aix, py = ay + s * aiy, pz = az + s * aiz;
  const qx = bx + t * bjx, qy = by + t * bjy, qz = bz + t * bjz;
  // Depth from the SAT separation (exact along n); the point midway between the edges' closest points.
  const d = -sep;
  const mx = 0.5 * (px + qx), my = 0.5 * (py + qy), mz = 0.5 * (pz + qz);
  addPointA(out, mx + 0.5 * d * nx, my + 0.5 * d * ny, mz + 0.5 * d * nz, d, (1 << 16) | (ij << 6) | (signsA << 3) | signsB);
  return 1;
}
