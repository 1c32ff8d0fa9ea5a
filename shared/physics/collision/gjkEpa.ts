/**
 * GJK distance and EPA penetration between two convex shapes, on their "cores": a sphere is its centre and
 * a capsule its segment, each with a radius added afterwards; boxes, cylinders and ellipsoids are their own
 * core (radius 0). D = A − B (Minkowski difference of the cores).
 * - Separated cores: GJK finds v = closest point of D to the origin = pA − pB; distance |v|; normal
 *   A→B = −v/|v|; depth = rA + rB − |v|.
 * - Overlapping cores: EPA grows a polytope inside D until the face nearest the origin is on D's boundary
 *   (to 1e-9 m); its outward normal n is the normal A→B and its distance the core penetration;
 *   depth = dist + rA + rB.
 * Results go to `gjkResult`; all storage is preallocated at module load.
 */
import { ShapeKind, type WorldShape } from './types';

export const gjkResult = {
  /** Unit normal A → B. */
  nx: 0, ny: 1, nz: 0,
  /** Depth (m): > 0 overlap, < 0 gap. */
  depth: 0,
  /** Closest/deepest points on the surfaces of A and B (radii included). */
  ax: 0, ay: 0, az: 0, bx: 0, by: 0, bz: 0,
};

export const coreRadius = (s: WorldShape): number => (s.kind === ShapeKind.sphere || s.kind === ShapeKind.capsule ? s.radius : 0);

const sup = new Float64Array(3);

/** Support point of the shape's core in world direction d (need not be unit), written to `sup`. */
export function supportCore(s: WorldShape, dx: number, dy: number, dz: number): void {
  const p = s.position, m = s.matrix;
  // Local direction l = Rᵀ d.
  const lx = m[0]! * dx + m[3]! * dy + m[6]! * dz;
  const ly = m[1]! * dx + m[4]! * dy + m[7]! * dz;
  const lz = m[2]! * dx + m[5]! * dy + m[8]! * dz;
  let x = 0, y = 0, z = 0;
  switch (s.kind) {
    case ShapeKind.sphere: break;
    case ShapeKind.capsule: {
      const a = s.axis, la = a === 0 ? lx : a === 1 ? ly : lz, h = la >= 0 ? s.halfHeight : -s.halfHeight;
      if (a === 0) x = h; else if (a === 1) y = h; else z = h;
      break;
    }
    case ShapeKind.box: {
      const e = s.halfExtents;
      x = lx >= 0 ? e[0]! : -e[0]!; y = ly >= 0 ? e[1]! : -e[1]!; z = lz >= 0 ? e[2]! : -e[2]!;
      break;
    }
    case ShapeKind.cylinder: {
      const a = s.axis, h = s.halfHeight, r = s.radius;
      // Axial part ±h; radial part r·(radial direction), none when d is along the axis.
      if (a === 0) { x = lx >= 0 ? h : -h; const q = Math.sqrt(ly * ly + lz * lz); if (q > 1e-300) { y = r * ly / q; z = r * lz / q; } }
      else if (a === 1) { y = ly >= 0 ? h : -h; const q = Math.sqrt(lx * lx + lz * lz); if (q > 1e-300) { x = r * lx / q; z = r * lz / q; } }
      else { z = lz >= 0 ? h : -h; const q = Math.sqrt(lx * lx + ly * ly); if (q > 1e-300) { x = r * lx / q; y = r * ly / q; } }
      break;
    }
    default: {
      // Ellipsoid x = E²l / |El|.
      const e = s.halfExtents;
      const ux = e[0]! * lx, uy = e[1]! * ly, uz = e[2]! * lz;
      const q = Math.sqrt(ux * ux + uy * uy + uz * uz);
      if (q > 1e-300) { x = e[0]! * ux / q; y = e[1]! * uy / q; z = e[2]! * uz / q; }
    }
  }
  sup[0] = p[0]! + m[0]! * x + m[1]! * y + m[2]! * z;
  sup[1] = p[1]! + m[3]! * x + m[4]! * y + m[5]! * z;
  sup[2] = p[2]! + m[6]! * x + m[7]! * y + m[8]! * z;
}

/**
 * Overlap of the two shapes' projections on the unit direction n (A → B), radii included:
 * max_{x∈A} x·n − min_{y∈B} y·n. Along any n it is ≥ the true signed depth, and equal to it along the
 * separating direction, so it is the exact depth once the direction is known (no polytope arithmetic).
 * Also leaves A's support point (its surface point deepest along n) in `overlapPointA`.
 */
export const overlapPointA = new Float64Array(3);
export function projectedOverlap(a: WorldShape, b: WorldShape, nx: number, ny: number, nz: number): number {
  const ra = coreRadius(a), rb = coreRadius(b);
  supportCore(a, nx, ny, nz);
  overlapPointA[0] = sup[0]! + ra * nx; overlapPointA[1] = sup[1]! + ra * ny; overlapPointA[2] = sup[2]! + ra * nz;
  const sa = sup[0]! * nx + sup[1]! * ny + sup[2]! * nz + ra;
  supportCore(b, -nx, -ny, -nz);
  const sb = sup[0]! * nx + sup[1]! * ny + sup[2]! * nz - rb;
  return sa - sb;
}

// Simplex: up to 4 vertices, each w = a − b with its a and b kept for the closest points.
const W = new Float64Array(12), SA = new Float64Array(12), SB = new Float64Array(12);
const lam = new Float64Array(4);
let nS = 0;
const tmpW = new Float64Array(12), tmpA = new Float64Array(12), tmpB = new Float64Array(12);

/** Reorder the simplex to the listed vertices (−1 = unused) with their barycentric weights. */
const idxBuf = new Int32Array(3), lBuf = new Float64Array(3);
function keepFast(i0: number, i1: number, i2: number, l0: number, l1: number, l2: number): void {
  idxBuf[0] = i0; idxBuf[1] = i1; idxBuf[2] = i2; lBuf[0] = l0; lBuf[1] = l1; lBuf[2] = l2;
  tmpW.set(W); tmpA.set(SA); tmpB.set(SB);
  nS = 0;
  for (let k = 0; k < 3; k++) {
    const i = idxBuf[k]!;
    if (i < 0) continue;
    for (let c = 0; c < 3; c++) { W[3 * nS + c] = tmpW[3 * i + c]!; SA[3 * nS + c] = tmpA[3 * i + c]!; SB[3 * nS + c] = tmpB[3 * i + c]!; }
    lam[nS] = lBuf[k]!;
    nS++;
  }
}

/** Closest point of the triangle (W[i], W[j], W[k]) to the origin (Ericson §5.1.5); reduces the simplex. */
function closestTriangle(i: number, j: number, k: number): void {
  // With a = W[i], b = W[j], c = W[k], p = 0: ap = −a, etc.
  const ax = W[3 * i]!, ay = W[3 * i + 1]!, az = W[3 * i + 2]!;
  const abx = W[3 * j]! - ax, aby = W[3 * j + 1]! - ay, abz = W[3 * j + 2]! - az;
  const acx = W[3 * k]! - ax, acy = W[3 * k + 1]! - ay, acz = W[3 * k + 2]! - az;
  const d1 = -(abx * ax + aby * ay + abz * az), d2 = -(acx * ax + acy * ay + acz * az);
  if (d1 <= 0 && d2 <= 0) { keepFast(i, -1, -1, 1, 0, 0); return; }
  const bx = W[3 * j]!, by = W[3 * j + 1]!, bz = W[3 * j + 2]!;
  const d3 = -(abx * bx + aby * by + abz * bz), d4 = -(acx * bx + acy * by + acz * bz);
  if (d3 >= 0 && d4 <= d3) { keepFast(j, -1, -1, 1, 0, 0); return; }
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) { const v = d1 / (d1 - d3); keepFast(i, j, -1, 1 - v, v, 0); return; }
  const cx = W[3 * k]!, cy = W[3 * k + 1]!, cz = W[3 * k + 2]!;
  const d5 = -(abx * cx + aby * cy + abz * cz), d6 = -(acx * cx + acy * cy + acz * cz);
  if (d6 >= 0 && d5 <= d6) { keepFast(k, -1, -1, 1, 0, 0); return; }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) { const w = d2 / (d2 - d6); keepFast(i, k, -1, 1 - w, w, 0); return; }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) { const w = (d4 - d3) / ((d4 - d3) + (d5 - d6)); keepFast(j, k, -1, 1 - w, w, 0); return; }
  const den = 1 / (va + vb + vc);
  const v = vb * den, w = vc * den;
  keepFast(i, j, k, 1 - v - w, v, w);
}

function closestSegment(i: number, j: number): void {
  const ax = W[3 * i]!, ay = W[3 * i + 1]!, az = W[3 * i + 2]!;
  const dx = W[3 * j]! - ax, dy = W[3 * j + 1]! - ay, dz = W[3 * j + 2]! - az;
  const dd = dx * dx + dy * dy + dz * dz;
  const t = dd > 0 ? -(ax * dx + ay * dy + az * dz) / dd : 0;
  if (t <= 0) keepFast(i, -1, -1, 1, 0, 0);
  else if (t >= 1) keepFast(j, -1, -1, 1, 0, 0);
  else keepFast(i, j, -1, 1 - t, t, 0);
}

/** Signed side of the origin relative to the plane of face (i, j, k), opposite vertex l: true when the
 *  origin is on the other side from l (so the face can hold the closest point). */
function originOutside(i: number, j: number, k: number, l: number): boolean {
  const ax = W[3 * i]!, ay = W[3 * i + 1]!, az = W[3 * i + 2]!;
  const ux = W[3 * j]! - ax, uy = W[3 * j + 1]! - ay, uz = W[3 * j + 2]! - az;
  const vx = W[3 * k]! - ax, vy = W[3 * k + 1]! - ay, vz = W[3 * k + 2]! - az;
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const so = -(nx * ax + ny * ay + nz * az);
  const sl = nx * (W[3 * l]! - ax) + ny * (W[3 * l + 1]! - ay) + nz * (W[3 * l + 2]! - az);
  return so * sl < 0;
}

const saveW = new Float64Array(12), saveA = new Float64Array(12), saveB = new Float64Array(12);

/** Tetrahedron: the closest point lies on a face whose plane separates the origin from the 4th vertex;
 *  none → the origin is inside (returns true). */
function closestTetra(): boolean {
  let bestD = Infinity, found = false;
  let bestN = 0;
  saveW.set(W); saveA.set(SA); saveB.set(SB);
  const faces = FACES;
  const bw = bestW, ba = bestA, bb = bestB, bl = bestL;
  for (let f = 0; f < 4; f++) {
    const i = faces[4 * f]!, j = faces[4 * f + 1]!, k = faces[4 * f + 2]!, l = faces[4 * f + 3]!;
    W.set(saveW); SA.set(saveA); SB.set(saveB); nS = 4;
    if (!originOutside(i, j, k, l)) continue;
    closestTriangle(i, j, k);
    let vx = 0, vy = 0, vz = 0;
    for (let q = 0; q < nS; q++) { vx += lam[q]! * W[3 * q]!; vy += lam[q]! * W[3 * q + 1]!; vz += lam[q]! * W[3 * q + 2]!; }
    const d = vx * vx + vy * vy + vz * vz;
    if (d < bestD) { bestD = d; found = true; bw.set(W); ba.set(SA); bb.set(SB); bl.set(lam); bestN = nS; }
  }
  if (!found) { W.set(saveW); SA.set(saveA); SB.set(saveB); nS = 4; return true; }
  W.set(bw); SA.set(ba); SB.set(bb); lam.set(bl); nS = bestN;
  return false;
}
const FACES = new Int32Array([0, 1, 2, 3, 0, 1, 3, 2, 0, 2, 3, 1, 1, 2, 3, 0]);
const bestW = new Float64Array(12), bestA = new Float64Array(12), bestB = new Float64Array(12), bestL = new Float64Array(4);

/** True when the vertex at W[k] repeats an earlier simplex vertex (to rounding): GJK made no progress. */
function isDuplicate(k: number): boolean {
  const x = W[k]!, y = W[k + 1]!, z = W[k + 2]!;
  const tol = 1e-24 * (1 + x * x + y * y + z * z);
  for (let j = 0; j < k; j += 3) {
    const dx = W[j]! - x, dy = W[j + 1]! - y, dz = W[j + 2]! - z;
    if (dx * dx + dy * dy + dz * dz <= tol) return true;
  }
  return false;
}

function pushVertex(a: WorldShape, b: WorldShape, dx: number, dy: number, dz: number): void {
  // w = supA(d) − supB(−d)
  supportCore(a, dx, dy, dz);
  const k = 3 * nS;
  SA[k] = sup[0]!; SA[k + 1] = sup[1]!; SA[k + 2] = sup[2]!;
  supportCore(b, -dx, -dy, -dz);
  SB[k] = sup[0]!; SB[k + 1] = sup[1]!; SB[k + 2] = sup[2]!;
  W[k] = SA[k]! - SB[k]!; W[k + 1] = SA[k + 1]! - SB[k + 1]!; W[k + 2] = SA[k + 2]! - SB[k + 2]!;
  nS++;
}

/**
 * Contact between a and b along their cores. Returns false when the shapes are farther apart than
 * `margin`; otherwise fills gjkResult.
 */
export function gjkEpa(a: WorldShape, b: WorldShape, margin: number): boolean {
  const ra = coreRadius(a), rb = coreRadius(b);
  // Start toward B from A (v = pA − pB direction); search direction −v.
  let vx = a.position[0]! - b.position[0]!, vy = a.position[1]! - b.position[1]!, vz = a.position[2]! - b.position[2]!;
  if (vx * vx + vy * vy + vz * vz < 1e-24) { vx = 1; vy = 0; vz = 0; }
  nS = 0;
  let overlap = false;
  let prev = Infinity;
  for (let iter = 0; iter < 64; iter++) {
    pushVertex(a, b, -vx, -vy, -vz);
    const k = 3 * (nS - 1);
    const vv = vx * vx + vy * vy + vz * vz;
    const vw = vx * W[k]! + vy * W[k + 1]! + vz * W[k + 2]!;
    // Early out: the support plane proves a gap larger than the radii + margin.
    if (vw > 0 && vw * vw > vv * (ra + rb + margin) * (ra + rb + margin)) return false;
    // No progress toward the origin: v is the closest point. vw carries a rounding error of about
    // ε·|v|·|w| (v is a combination of vertices as large as w: 141 m for a 200 m ground box against a
    // 0.4 m capsule), so the test is relative to both — a purely relative 1e-10·|v|² let a 40 mm gap run
    // on into a flat tetrahedron that "contained" the origin and an EPA depth of 0.44 m.
    const ww = W[k]! * W[k]! + W[k + 1]! * W[k + 1]! + W[k + 2]! * W[k + 2]!;
    if (iter > 0 && (vv - vw <= 1e-10 * vv + 1e-11 * Math.sqrt(vv * ww) || isDuplicate(k))) { nS--; break; }
    if (nS === 2) closestSegment(0, 1);
    else if (nS === 3) closestTriangle(0, 1, 2);
    else if (nS === 4) { if (closestTetra()) { overlap = true; break; } }
    else lam[0] = 1;
    vx = 0; vy = 0; vz = 0;
    for (let q = 0; q < nS; q++) { vx += lam[q]! * W[3 * q]!; vy += lam[q]! * W[3 * q + 1]!; vz += lam[q]! * W[3 * q + 2]!; }
    const nv = vx * vx + vy * vy + vz * vz;
    if (nv < 1e-20) { overlap = true; break; }
    if (nv >= prev) break; // numerical stall
    prev = nv;
  }
  const r = gjkResult;
  if (!overlap) {
    let pax = 0, pay = 0, paz = 0, pbx = 0, pby = 0, pbz = 0;
    for (let q = 0; q < nS; q++) {
      const l = lam[q]!;
      pax += l * SA[3 * q]!; pay += l * SA[3 * q + 1]!; paz += l * SA[3 * q + 2]!;
      pbx += l * SB[3 * q]!; pby += l * SB[3 * q + 1]!; pbz += l * SB[3 * q + 2]!;
    }
    const d = Math.sqrt(vx * vx + vy * vy + vz * vz);
    if (d - ra - rb > margin) return false;
    const nx = -vx / d, ny = -vy / d, nz = -vz / d;
    r.nx = nx; r.ny = ny; r.nz = nz;
    r.depth = ra + rb - d;
    r.ax = pax + ra * nx; r.ay = pay + ra * ny; r.az = paz + ra * nz;
    r.bx = pbx - rb * nx; r.by = pby - rb * ny; r.bz = pbz - rb * nz;
    return true;
  }
  if (!epa(a, b)) return false;
  r.depth += ra + rb;
  r.ax += ra * r.nx; r.ay += ra * r.ny; r.az += ra * r.nz;
  r.bx -= rb * r.nx; r.by -= rb * r.ny; r.bz -= rb * r.nz;
  return true;
}

// ------------------------------------------------------------------------------------------------ EPA

const MAX_V = 96, MAX_F = 192, MAX_E = 192;
const PV = new Float64Array(3 * MAX_V), PA = new Float64Array(3 * MAX_V), PB = new Float64Array(3 * MAX_V);
const F = new Int32Array(3 * MAX_F);
const FN = new Float64Array(3 * MAX_F), FD = new Float64Array(MAX_F);
const FALIVE = new Uint8Array(MAX_F);
const E = new Int32Array(2 * MAX_E);
let nV = 0, nF = 0;

function addPolyVertex(): number {
  const k = 3 * nS - 3; // last simplex vertex
  const i = nV++;
  PV[3 * i] = W[k]!; PV[3 * i + 1] = W[k + 1]!; PV[3 * i + 2] = W[k + 2]!;
  PA[3 * i] = SA[k]!; PA[3 * i + 1] = SA[k + 1]!; PA[3 * i + 2] = SA[k + 2]!;
  PB[3 * i] = SB[k]!; PB[3 * i + 1] = SB[k + 1]!; PB[3 * i + 2] = SB[k + 2]!;
  return i;
}

/** Add face (i, j, k) oriented so its normal points away from the origin side given by `inside`. */
function addFace(i: number, j: number, k: number): boolean {
  if (nF >= MAX_F) return false;
  const ax = PV[3 * i]!, ay = PV[3 * i + 1]!, az = PV[3 * i + 2]!;
  const ux = PV[3 * j]! - ax, uy = PV[3 * j + 1]! - ay, uz = PV[3 * j + 2]! - az;
  const vx = PV[3 * k]! - ax, vy = PV[3 * k + 1]! - ay, vz = PV[3 * k + 2]! - az;
  let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (l < 1e-30) return false;
  nx /= l; ny /= l; nz /= l;
  const f = nF++;
  F[3 * f] = i; F[3 * f + 1] = j; F[3 * f + 2] = k;
  FN[3 * f] = nx; FN[3 * f + 1] = ny; FN[3 * f + 2] = nz;
  FD[f] = nx * ax + ny * ay + nz * az;
  FALIVE[f] = 1;
  return true;
}

const EXPAND_DIRS = new Float64Array([1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1]);

/** Grow a degenerate GJK simplex (origin on a vertex, edge or face) into a tetrahedron. */
function expandSimplex(a: WorldShape, b: WorldShape): boolean {
  for (let guard = 0; guard < 12 && nS < 4; guard++) {
    if (nS === 1) {
      const d = guard % 6;
      pushVertex(a, b, EXPAND_DIRS[3 * d]!, EXPAND_DIRS[3 * d + 1]!, EXPAND_DIRS[3 * d + 2]!);
      const dx = W[3]! - W[0]!, dy = W[4]! - W[1]!, dz = W[5]! - W[2]!;
      if (dx * dx + dy * dy + dz * dz < 1e-20) nS--;
    } else if (nS === 2) {
      const ex = W[3]! - W[0]!, ey = W[4]! - W[1]!, ez = W[5]! - W[2]!;
      // Perpendicular to the edge: cross with the least aligned world axis, then its negative.
      const ax = Math.abs(ex), ay = Math.abs(ey), az = Math.abs(ez);
      let dx: number, dy: number, dz: number;
      if (ax <= ay && ax <= az) { dx = 0; dy = ez; dz = -ey; } else if (ay <= az) { dx = -ez; dy = 0; dz = ex; } else { dx = ey; dy = -ex; dz = 0; }
      if (guard & 1) { dx = -dx; dy = -dy; dz = -dz; }
      pushVertex(a, b, dx, dy, dz);
      const fx = W[6]! - W[0]!, fy = W[7]! - W[1]!, fz = W[8]! - W[2]!;
      const cx = ey * fz - ez * fy, cy = ez * fx - ex * fz, cz = ex * fy - ey * fx;
      if (cx * cx + cy * cy + cz * cz < 1e-24) nS--;
    } else {
      const ux = W[3]! - W[0]!, uy = W[4]! - W[1]!, uz = W[5]! - W[2]!;
      const wx = W[6]! - W[0]!, wy = W[7]! - W[1]!, wz = W[8]! - W[2]!;
      let nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
      if (guard & 1) { nx = -nx; ny = -ny; nz = -nz; }
      pushVertex(a, b, nx, ny, nz);
      const vol = nx * (W[9]! - W[0]!) + ny * (W[10]! - W[1]!) + nz * (W[11]! - W[2]!);
      if (Math.abs(vol) < 1e-24) nS--;
    }
  }
  return nS === 4;
}

function epa(a: WorldShape, b: WorldShape): boolean {
  if (nS < 4 && !expandSimplex(a, b)) return touchingFallback(a, b);
  nV = 0; nF = 0;
  const savedN = nS;
  for (let q = 0; q < 4; q++) { nS = q + 1; addPolyVertex(); }
  nS = savedN;
  // Orient the initial tetrahedron: face (0,1,2) must have vertex 3 behind it.
  const ux = PV[3] - PV[0]!, uy = PV[4]! - PV[1]!, uz = PV[5]! - PV[2]!;
  const vx = PV[6]! - PV[0]!, vy = PV[7]! - PV[1]!, vz = PV[8]! - PV[2]!;
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  const side = cx * (PV[9]! - PV[0]!) + cy * (PV[10]! - PV[1]!) + cz * (PV[11]! - PV[2]!);
  if (side > 0) { addFace(0, 2, 1); addFace(0, 1, 3); addFace(1, 2, 3); addFace(2, 0, 3); }
  else { addFace(0, 1, 2); addFace(0, 3, 1); addFace(1, 3, 2); addFace(2, 3, 0); }
  if (nF < 4) return touchingFallback(a, b);

  let best = -1;
  for (let iter = 0; iter < 64; iter++) {
    best = -1;
    let bd = Infinity;
    for (let f = 0; f < nF; f++) if (FALIVE[f] && FD[f]! < bd) { bd = FD[f]!; best = f; }
    if (best < 0) return touchingFallback(a, b);
    const nx = FN[3 * best]!, ny = FN[3 * best + 1]!, nz = FN[3 * best + 2]!;
    if (nV >= MAX_V) break;
    nS = 0;
    pushVertex(a, b, nx, ny, nz);
    const wd = nx * W[0]! + ny * W[1]! + nz * W[2]!;
    if (wd - bd < 1e-9 + 1e-9 * Math.abs(bd)) break;
    const vi = addPolyVertex();
    // Remove faces that see the new vertex; keep the horizon edges (those of exactly one removed face).
    let nE = 0;
    const wx = PV[3 * vi]!, wy = PV[3 * vi + 1]!, wz = PV[3 * vi + 2]!;
    for (let f = 0; f < nF; f++) {
      if (!FALIVE[f]) continue;
      if (FN[3 * f]! * wx + FN[3 * f + 1]! * wy + FN[3 * f + 2]! * wz - FD[f]! <= 1e-12) continue;
      FALIVE[f] = 0;
      for (let e = 0; e < 3; e++) {
        const p = F[3 * f + e]!, q = F[3 * f + (e + 1) % 3]!;
        let found = -1;
        for (let g = 0; g < nE; g++) if (E[2 * g] === q && E[2 * g + 1] === p) { found = g; break; }
        if (found >= 0) { nE--; E[2 * found] = E[2 * nE]!; E[2 * found + 1] = E[2 * nE + 1]!; }
        else if (nE < MAX_E) { E[2 * nE] = p; E[2 * nE + 1] = q; nE++; }
      }
    }
    // Compact dead faces so nF stays small.
    let w = 0;
    for (let f = 0; f < nF; f++) {
      if (!FALIVE[f]) continue;
      if (w !== f) {
        F[3 * w] = F[3 * f]!; F[3 * w + 1] = F[3 * f + 1]!; F[3 * w + 2] = F[3 * f + 2]!;
        FN[3 * w] = FN[3 * f]!; FN[3 * w + 1] = FN[3 * f + 1]!; FN[3 * w + 2] = FN[3 * f + 2]!;
        FD[w] = FD[f]!; FALIVE[w] = 1;
      }
      w++;
    }
    nF = w;
    for (let g = 0; g < nE; g++) addFace(E[2 * g]!, E[2 * g + 1]!, vi);
  }
  // Recompute the best face (the loop may have ended after modifying the polytope).
  best = -1;
  let bd = Infinity;
  for (let f = 0; f < nF; f++) if (FALIVE[f] && FD[f]! < bd) { bd = FD[f]!; best = f; }
  if (best < 0) return touchingFallback(a, b);
  // Barycentric coordinates of the origin's projection (n·d) onto the face → points on A and B.
  const i = F[3 * best]!, j = F[3 * best + 1]!, k = F[3 * best + 2]!;
  const nx = FN[3 * best]!, ny = FN[3 * best + 1]!, nz = FN[3 * best + 2]!;
  const px = nx * bd, py = ny * bd, pz = nz * bd;
  const l = bary(i, j, k, px, py, pz);
  const r = gjkResult;
  r.nx = nx; r.ny = ny; r.nz = nz; r.depth = bd;
  r.ax = l[0]! * PA[3 * i]! + l[1]! * PA[3 * j]! + l[2]! * PA[3 * k]!;
  r.ay = l[0]! * PA[3 * i + 1]! + l[1]! * PA[3 * j + 1]! + l[2]! * PA[3 * k + 1]!;
  r.az = l[0]! * PA[3 * i + 2]! + l[1]! * PA[3 * j + 2]! + l[2]! * PA[3 * k + 2]!;
  r.bx = l[0]! * PB[3 * i]! + l[1]! * PB[3 * j]! + l[2]! * PB[3 * k]!;
  r.by = l[0]! * PB[3 * i + 1]! + l[1]! * PB[3 * j + 1]! + l[2]! * PB[3 * k + 1]!;
  r.bz = l[0]! * PB[3 * i + 2]! + l[1]! * PB[3 * j + 2]! + l[2]! * PB[3 * k + 2]!;
  return true;
}

const baryOut = new Float64Array(3);
function bary(i: number, j: number, k: number, px: number, py: number, pz: number): Float64Array {
  const ax = PV[3 * i]!, ay = PV[3 * i + 1]!, az = PV[3 * i + 2]!;
  const v0x = PV[3 * j]! - ax, v0y = PV[3 * j + 1]! - ay, v0z = PV[3 * j + 2]! - az;
  const v1x = PV[3 * k]! - ax, v1y = PV[3 * k + 1]! - ay, v1z = PV[3 * k + 2]! - az;
  const v2x = px - ax, v2y = py - ay, v2z = pz - az;
  const d00 = v0x * v0x + v0y * v0y + v0z * v0z, d01 = v0x * v1x + v0y * v1y + v0z * v1z, d11 = v1x * v1x + v1y * v1y + v1z * v1z;
  const d20 = v2x * v0x + v2y * v0y + v2z * v0z, d21 = v2x * v1x + v2y * v1y + v2z * v1z;
  const den = d00 * d11 - d01 * d01;
  if (Math.abs(den) < 1e-300) { baryOut[0] = 1; baryOut[1] = 0; baryOut[2] = 0; return baryOut; }
  const v = (d11 * d20 - d01 * d21) / den, w = (d00 * d21 - d01 * d20) / den;
  baryOut[0] = 1 - v - w; baryOut[1] = v; baryOut[2] = w;
  return baryOut;
}

/** Cores exactly touching with a flat Minkowski difference at the origin: report a zero-depth contact
 *  along the centre line (only reached in degenerate configurations). */
function touchingFallback(a: WorldShape, b: WorldShape): boolean {
  let nx = b.position[0]! - a.position[0]!, ny = b.position[1]! - a.position[1]!, nz = b.position[2]! - a.position[2]!;
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (l < 1e-12) { nx = 0; ny = 1; nz = 0; } else { nx /= l; ny /= l; nz /= l; }
  supportCore(a, nx, ny, nz);
  const r = gjkResult;
  r.nx = nx; r.ny = ny; r.nz = nz; r.depth = 0;
  r.ax = sup[0]!; r.ay = sup[1]!; r.az = sup[2]!;
  supportCore(b, -nx, -ny, -nz);
  r.bx = sup[0]!; r.by = sup[1]!; r.bz = sup[2]!;
  r.depth = (r.ax - r.bx) * nx + (r.ay - r.by) * ny + (r.az - r.bz) * nz;
  return true;
}
