/**
 * Generic convex pair: GJK/EPA (gjkEpa.ts) gives the normal and the deepest point; a manifold of up to 4
 * points comes from the two shapes' supporting features along that normal (Jolt's approach):
 * - feature of A in direction +n, of B in −n: a box face (4 corners), a cylinder cap (8-gon inscribed in the
 *   rim) or side line (2 points), a capsule's side line when it lies across n (2 points), else a point;
 * - the incident feature is clipped against the side planes of the reference feature (planes through its
 *   edges containing n), each surviving point is carried along n onto the reference plane, and its depth
 *   is that distance; points farther apart than the margin are dropped;
 * - the EPA/GJK point is added when it is deeper than every clipped point (a rim between 8-gon corners);
 * - more than 4 → the 4 that keep the deepest point and the largest area.
 * A sphere or ellipsoid on either side, or nothing surviving, gives the single GJK/EPA point.
 */
import { gjkEpa, gjkResult, overlapPointA, projectedOverlap } from './gjkEpa';
import { addPointA, addPointB, setNormal } from './manifold';
import { ShapeKind, type ContactManifoldData, type WorldShape } from './types';

/** |axis·n| below which a capsule lying across the normal contributes its side line (≈ 3°). */
const CAPSULE_SIDE_SIN = 0.05;
/** |axis·n| at or above which a cylinder contributes its cap, else its side line (45°). */
const CYLINDER_CAP_COS = Math.SQRT1_2;
const CAP_SIDES = 8;
const MAX_POLY = 16;

const featA = new Float64Array(3 * CAP_SIDES), featB = new Float64Array(3 * CAP_SIDES);
let featId = 0;

/** Supporting feature of s in direction d (unit) into buf; returns its vertex count (1, 2, 4 or 8) and
 *  sets featId. Vertices of a polygon are in boundary order. */
function supportingFeature(s: WorldShape, dx: number, dy: number, dz: number, buf: Float64Array): number {
  const p = s.position, m = s.matrix;
  switch (s.kind) {
    case ShapeKind.capsule: {
      const ax = s.axis, ux = m[ax]!, uy = m[3 + ax]!, uz = m[6 + ax]!;
      if (Math.abs(ux * dx + uy * dy + uz * dz) >= CAPSULE_SIDE_SIN) return 1;
      const h = s.halfHeight, r = s.radius;
      for (let k = 0; k < 2; k++) {
        const sg = k === 0 ? -1 : 1;
        buf[3 * k] = p[0]! + sg * h * ux + r * dx; buf[3 * k + 1] = p[1]! + sg * h * uy + r * dy; buf[3 * k + 2] = p[2]! + sg * h * uz + r * dz;
      }
      featId = 0;
      return 2;
    }
    case ShapeKind.box: {
      const lx = m[0]! * dx + m[3]! * dy + m[6]! * dz, ly = m[1]! * dx + m[4]! * dy + m[7]! * dz, lz = m[2]! * dx + m[5]! * dy + m[8]! * dz;
      let k = 0, best = Math.abs(lx);
      if (Math.abs(ly) > best + 1e-12) { k = 1; best = Math.abs(ly); }
      if (Math.abs(lz) > best + 1e-12) { k = 2; }
      const lk = k === 0 ? lx : k === 1 ? ly : lz, sg = lk >= 0 ? 1 : -1;
      const e = s.halfExtents, k1 = (k + 1) % 3, k2 = (k + 2) % 3;
      const cx = p[0]! + sg * e[k]! * m[k]!, cy = p[1]! + sg * e[k]! * m[3 + k]!, cz = p[2]! + sg * e[k]! * m[6 + k]!;
      const ux = e[k1]! * m[k1]!, uy = e[k1]! * m[3 + k1]!, uz = e[k1]! * m[6 + k1]!;
      const vx = e[k2]! * m[k2]!, vy = e[k2]! * m[3 + k2]!, vz = e[k2]! * m[6 + k2]!;
      for (let q = 0; q < 4; q++) {
        const su = q === 0 || q === 3 ? 1 : -1, sv = q < 2 ? 1 : -1;
        buf[3 * q] = cx + su * ux + sv * vx; buf[3 * q + 1] = cy + su * uy + sv * vy; buf[3 * q + 2] = cz + su * uz + sv * vz;
      }
      featId = 2 * k + (sg > 0 ? 0 : 1);
      return 4;
    }
    case ShapeKind.cylinder: {
      const ax = s.axis, ux = m[ax]!, uy = m[3 + ax]!, uz = m[6 + ax]!, h = s.halfHeight, r = s.radius;
      const du = ux * dx + uy * dy + uz * dz;
      if (Math.abs(du) >= CYLINDER_CAP_COS) {
        const sg = du >= 0 ? 1 : -1;
        const cx = p[0]! + sg * h * ux, cy = p[1]! + sg * h * uy, cz = p[2]! + sg * h * uz;
        const k1 = (ax + 1) % 3, k2 = (ax + 2) % 3;
        for (let q = 0; q < CAP_SIDES; q++) {
          const t = (2 * Math.PI * q) / CAP_SIDES, c = r * Math.cos(t), sn = r * Math.sin(t);
          buf[3 * q] = cx + c * m[k1]! + sn * m[k2]!;
          buf[3 * q + 1] = cy + c * m[3 + k1]! + sn * m[3 + k2]!;
          buf[3 * q + 2] = cz + c * m[6 + k1]! + sn * m[6 + k2]!;
        }
        featId = sg > 0 ? 0 : 1;
        return CAP_SIDES;
      }
      // Side line at the radial direction of d.
      let wx = dx - du * ux, wy = dy - du * uy, wz = dz - du * uz;
      const wl = Math.sqrt(wx * wx + wy * wy + wz * wz);
      wx /= wl; wy /= wl; wz /= wl;
      for (let k = 0; k < 2; k++) {
        const sg = k === 0 ? -1 : 1;
        buf[3 * k] = p[0]! + sg * h * ux + r * wx; buf[3 * k + 1] = p[1]! + sg * h * uy + r * wy; buf[3 * k + 2] = p[2]! + sg * h * uz + r * wz;
      }
      featId = 2;
      return 2;
    }
    default: return 1;
  }
}

// Clipping scratch: polygon ping-pong buffers with vertex ids and the line of each outgoing edge.
const P0 = new Float64Array(3 * MAX_POLY), P1 = new Float64Array(3 * MAX_POLY);
const I0 = new Int32Array(MAX_POLY), I1 = new Int32Array(MAX_POLY);
const L0 = new Int32Array(MAX_POLY), L1 = new Int32Array(MAX_POLY);
const candD = new Float64Array(MAX_POLY + 1), candP = new Float64Array(3 * (MAX_POLY + 1));
const candId = new Int32Array(MAX_POLY + 1);
const pick = new Int32Array(4);

/** A box face axis replaces the GJK/EPA direction when its projected overlap is within this of the
 *  GJK/EPA depth (m): face contacts then get the face's exact normal and depth, not EPA's (whose polytope
 *  arithmetic on a 200 m ground box is good to only ~1e-7 m and whose normal wobbles by as much). */
const FACE_PREFERENCE = 1e-4;

/** Try the 6 face normals of box `box` (one of a, b): if one separates no worse than GJK/EPA (within
 *  FACE_PREFERENCE), rewrite gjkResult with it and its exact projected depth. */
function preferBoxFace(a: WorldShape, b: WorldShape, box: WorldShape): void {
  const g = gjkResult, m = box.matrix;
  let best = g.depth + FACE_PREFERENCE, bx = 0, by = 0, bz = 0, found = false;
  for (let k = 0; k < 3; k++) {
    for (let sg = -1; sg <= 1; sg += 2) {
      const nx = sg * m[k]!, ny = sg * m[3 + k]!, nz = sg * m[6 + k]!;
      const d = projectedOverlap(a, b, nx, ny, nz);
      if (d < best) { best = d; bx = nx; by = ny; bz = nz; found = true; }
    }
  }
  if (!found) return;
  projectedOverlap(a, b, bx, by, bz);
  const p = overlapPointA;
  g.nx = bx; g.ny = by; g.nz = bz; g.depth = best;
  g.ax = p[0]!; g.ay = p[1]!; g.az = p[2]!;
  g.bx = p[0]! - best * bx; g.by = p[1]! - best * by; g.bz = p[2]! - best * bz;
}

export function convexConvex(a: WorldShape, b: WorldShape, margin: number, out: ContactManifoldData): number {
  out.count = 0;
  if (!gjkEpa(a, b, margin)) return 0;
  const g = gjkResult;
  if (b.kind === ShapeKind.box) preferBoxFace(a, b, b);
  else if (a.kind === ShapeKind.box) preferBoxFace(a, b, a);
  if (g.depth < -margin) return 0;
  const nx = g.nx, ny = g.ny, nz = g.nz;
  setNormal(out, nx, ny, nz);
  const na = supportingFeature(a, nx, ny, nz, featA);
  const fa = featId;
  const nb = supportingFeature(b, -nx, -ny, -nz, featB);
  const fb = featId;
  if (na >= 2 && nb >= 2) {
    // Reference = A's feature if it is a polygon, else B's if it is, else A's segment.
    const refIsA = na > 2 || nb === 2;
    const ref = refIsA ? featA : featB, nr = refIsA ? na : nb;
    const inc = refIsA ? featB : featA, ni = refIsA ? nb : na;
    const n = clipAndCollect(ref, nr, inc, ni, refIsA, nx, ny, nz, margin);
    if (n > 0) {
      const base = (1 << 24) | (refIsA ? 0 : 1 << 23) | ((refIsA ? fa : fb) << 13) | ((refIsA ? fb : fa) << 9);
      // No pair of surface points overlaps more along n than the shapes' extents along n do (the EPA depth);
      // a tilted reference plane can overstate it, so clamp.
      let deepest = -Infinity;
      for (let q = 0; q < n; q++) {
        if (candD[q]! > g.depth) candD[q] = g.depth;
        if (candD[q]! > deepest) deepest = candD[q]!;
      }
      let total = n;
      // The EPA point stands for the true rim when the polygon under-samples it.
      if (g.depth > deepest + 1e-7) {
        candP[3 * n] = refIsA ? g.bx : g.ax; candP[3 * n + 1] = refIsA ? g.by : g.ay; candP[3 * n + 2] = refIsA ? g.bz : g.az;
        candD[n] = g.depth; candId[n] = 0x100; total++;
      }
      const k = total > 4 ? reduce(total) : identity(total);
      for (let c = 0; c < k; c++) {
        const q = pick[c]!;
        const x = candP[3 * q]!, y = candP[3 * q + 1]!, z = candP[3 * q + 2]!;
        // Candidates lie on the incident shape: B when A is the reference.
        if (refIsA) addPointB(out, x, y, z, candD[q]!, base | candId[q]!);
        else addPointA(out, x, y, z, candD[q]!, base | candId[q]!);
      }
      return out.count;
    }
  }
  addPointA(out, g.ax, g.ay, g.az, g.depth, (1 << 25) | (na > 1 ? fa << 8 : 0xf00) | (nb > 1 ? fb : 0xf));
  return 1;
}

function identity(n: number): number {
  for (let q = 0; q < n; q++) pick[q] = q;
  return n;
}

/**
 * Clip the incident feature against the reference feature's side planes (normal = edge × n, outward; for a
 * segment reference: its two end planes), then carry every point along n onto the reference plane.
 * Writes candP/candD/candId; returns the count of points within the margin.
 */
function clipAndCollect(
  ref: Float64Array, nr: number, inc: Float64Array, ni: number, refIsA: boolean,
  nx: number, ny: number, nz: number, margin: number,
): number {
  for (let q = 0; q < 3 * ni; q++) P0[q] = inc[q]!;
  for (let q = 0; q < ni; q++) { I0[q] = q; L0[q] = q; }
  let src = P0, dst = P1, si = I0, di = I1, sl = L0, dl = L1, count = ni;
  // Reference plane normal (outward of the reference shape): A's faces face +n, B's −n.
  let rnx: number, rny: number, rnz: number;
  if (nr === 2) {
    // Segment reference: plane containing it, normal n without its along-segment part; side planes at ends.
    const ex = ref[3]! - ref[0]!, ey = ref[4]! - ref[1]!, ez = ref[5]! - ref[2]!;
    const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
    const ux = ex / el, uy = ey / el, uz = ez / el;
    const dn = nx * ux + ny * uy + nz * uz;
    rnx = nx - dn * ux; rny = ny - dn * uy; rnz = nz - dn * uz;
    const rl = Math.sqrt(rnx * rnx + rny * rny + rnz * rnz);
    rnx /= rl; rny /= rl; rnz /= rl;
    if (!refIsA) { rnx = -rnx; rny = -rny; rnz = -rnz; }
    for (let side = 0; side < 2; side++) {
      const sg = side === 0 ? -1 : 1;
      const off = sg * (ux * ref[3 * side]! + uy * ref[3 * side + 1]! + uz * ref[3 * side + 2]!);
      count = clipPoly(src, si, sl, count, dst, di, dl, sg * ux, sg * uy, sg * uz, off, MAX_POLY / 2 + side);
      if (count === 0) return 0;
      const t = src; src = dst; dst = t; const ti = si; si = di; di = ti; const tl = sl; sl = dl; dl = tl;
    }
  } else {
    // Polygon: its own normal from two edges, oriented like the contact normal for A (−n for B).
    const ux = ref[3]! - ref[0]!, uy = ref[4]! - ref[1]!, uz = ref[5]! - ref[2]!;
    const vx = ref[6]! - ref[0]!, vy = ref[7]! - ref[1]!, vz = ref[8]! - ref[2]!;
    rnx = uy * vz - uz * vy; rny = uz * vx - ux * vz; rnz = ux * vy - uy * vx;
    const rl = Math.sqrt(rnx * rnx + rny * rny + rnz * rnz);
    rnx /= rl; rny /= rl; rnz /= rl;
    const want = refIsA ? 1 : -1;
    if ((rnx * nx + rny * ny + rnz * nz) * want < 0) { rnx = -rnx; rny = -rny; rnz = -rnz; }
    let cx = 0, cy = 0, cz = 0;
    for (let q = 0; q < nr; q++) { cx += ref[3 * q]!; cy += ref[3 * q + 1]!; cz += ref[3 * q + 2]!; }
    cx /= nr; cy /= nr; cz /= nr;
    for (let e = 0; e < nr; e++) {
      const f = e + 1 === nr ? 0 : e + 1;
      const ex = ref[3 * f]! - ref[3 * e]!, ey = ref[3 * f + 1]! - ref[3 * e + 1]!, ez = ref[3 * f + 2]! - ref[3 * e + 2]!;
      let sx = ey * nz - ez * ny, sy = ez * nx - ex * nz, sz = ex * ny - ey * nx;
      const off0 = sx * ref[3 * e]! + sy * ref[3 * e + 1]! + sz * ref[3 * e + 2]!;
      let off = off0;
      if (sx * cx + sy * cy + sz * cz > off0) { sx = -sx; sy = -sy; sz = -sz; off = -off0; }
      count = clipPoly(src, si, sl, count, dst, di, dl, sx, sy, sz, off, MAX_POLY / 2 + e);
      if (count === 0) return 0;
      const t = src; src = dst; dst = t; const ti = si; si = di; di = ti; const tl = sl; sl = dl; dl = tl;
    }
  }
  const r0x = ref[0]!, r0y = ref[1]!, r0z = ref[2]!;
  const nn = nx * rnx + ny * rny + nz * rnz;
  if (Math.abs(nn) < 1e-9) return 0;
  let kept = 0;
  for (let q = 0; q < count; q++) {
    const px = src[3 * q]!, py = src[3 * q + 1]!, pz = src[3 * q + 2]!;
    // Line p + t·n meets the reference plane at t = (r0 − p)·nr / (n·nr); depth = t (A ref) or −t (B ref).
    const t = ((r0x - px) * rnx + (r0y - py) * rny + (r0z - pz) * rnz) / nn;
    const d = refIsA ? t : -t;
    if (d < -margin) continue;
    candP[3 * kept] = px; candP[3 * kept + 1] = py; candP[3 * kept + 2] = pz;
    candD[kept] = d; candId[kept] = si[q]!;
    kept++;
  }
  return kept;
}

/**
 * Sutherland–Hodgman against p·a ≤ off (see boxes.ts for the id scheme: a vertex is named by the two lines
 * meeting there; incident edges are lines 0..7, reference side planes 8..15). A 2-vertex input is a segment
 * and is clipped as one (no closing edge).
 */
function clipPoly(
  src: Float64Array, si: Int32Array, sl: Int32Array, n: number, dst: Float64Array, di: Int32Array, dl: Int32Array,
  ax: number, ay: number, az: number, off: number, line: number,
): number {
  let m = 0;
  const edges = n === 2 ? 1 : n;
  if (n === 1) {
    if (ax * src[0]! + ay * src[1]! + az * src[2]! <= off) { dst[0] = src[0]!; dst[1] = src[1]!; dst[2] = src[2]!; di[0] = si[0]!; dl[0] = sl[0]!; return 1; }
    return 0;
  }
  for (let i = 0; i < edges; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const px = src[3 * i]!, py = src[3 * i + 1]!, pz = src[3 * i + 2]!;
    const qx = src[3 * j]!, qy = src[3 * j + 1]!, qz = src[3 * j + 2]!;
    const dp = ax * px + ay * py + az * pz - off, dq = ax * qx + ay * qy + az * qz - off;
    if (dp <= 0 && m < MAX_POLY) { dst[3 * m] = px; dst[3 * m + 1] = py; dst[3 * m + 2] = pz; di[m] = si[i]!; dl[m] = sl[i]!; m++; }
    if (((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) && m < MAX_POLY) {
      const t = dp / (dp - dq);
      dst[3 * m] = px + t * (qx - px); dst[3 * m + 1] = py + t * (qy - py); dst[3 * m + 2] = pz + t * (qz - pz);
      di[m] = 0x80 | ((sl[i]! & 0xf) << 3) | (line & 7);
      dl[m] = dp < 0 ? line : sl[i]!;
      m++;
    }
    // A segment's far end is kept on its own (no closing edge brings it in).
    if (n === 2 && dq <= 0 && m < MAX_POLY) { dst[3 * m] = qx; dst[3 * m + 1] = qy; dst[3 * m + 2] = qz; di[m] = si[j]!; dl[m] = sl[j]!; m++; }
  }
  return m;
}

/** Choose 4 of n candidates into `pick`: the deepest, the farthest from it, the largest triangle, then the
 *  largest area on the other side. */
function reduce(n: number): number {
  let i0 = 0;
  for (let i = 1; i < n; i++) if (candD[i]! > candD[i0]! + 1e-9) i0 = i;
  let i1 = -1, bd = -1;
  for (let i = 0; i < n; i++) {
    if (i === i0) continue;
    const dx = candP[3 * i]! - candP[3 * i0]!, dy = candP[3 * i + 1]! - candP[3 * i0 + 1]!, dz = candP[3 * i + 2]! - candP[3 * i0 + 2]!;
    const d = dx * dx + dy * dy + dz * dz;
    if (d > bd) { bd = d; i1 = i; }
  }
  const ex = candP[3 * i1]! - candP[3 * i0]!, ey = candP[3 * i1 + 1]! - candP[3 * i0 + 1]!, ez = candP[3 * i1 + 2]! - candP[3 * i0 + 2]!;
  let i2 = -1, i3 = -1, amax = 0, amin = 0, rx = 0, ry = 0, rz = 0;
  for (let i = 0; i < n; i++) {
    if (i === i0 || i === i1) continue;
    const fx = candP[3 * i]! - candP[3 * i0]!, fy = candP[3 * i + 1]! - candP[3 * i0 + 1]!, fz = candP[3 * i + 2]! - candP[3 * i0 + 2]!;
    const cx = ey * fz - ez * fy, cy = ez * fx - ex * fz, cz = ex * fy - ey * fx;
    const a = cx * cx + cy * cy + cz * cz;
    if (a > amax) { amax = a; i2 = i; rx = cx; ry = cy; rz = cz; }
  }
  for (let i = 0; i < n; i++) {
    if (i === i0 || i === i1 || i === i2) continue;
    const fx = candP[3 * i]! - candP[3 * i0]!, fy = candP[3 * i + 1]! - candP[3 * i0 + 1]!, fz = candP[3 * i + 2]! - candP[3 * i0 + 2]!;
    const s = rx * (ey * fz - ez * fy) + ry * (ez * fx - ex * fz) + rz * (ex * fy - ey * fx);
    if (s < amin) { amin = s; i3 = i; }
  }
  pick[0] = i0; pick[1] = i1;
  let c = 2;
  if (i2 >= 0) pick[c++] = i2;
  if (i3 >= 0) pick[c++] = i3;
  for (let i = 0; i < n && c < 4; i++) if (i !== i0 && i !== i1 && i !== i2 && i !== i3) pick[c++] = i;
  return c;
}
