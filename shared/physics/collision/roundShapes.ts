/**
 * Sphere and capsule pairs. A capsule is a segment swept by a radius, so every pair reduces to the closest
 * points of two "cores" (points or segments) and a distance test against the summed radii:
 *   depth = rA + rB − |cB − cA|,  normal = (cB − cA)/|cB − cA|  (A → B).
 * Two capsules that lie nearly parallel get two points (the ends of their overlap) so they do not roll.
 */
import { addPointA, setNormal } from './manifold';
import { closestOnSegment, closestSegmentSegment, segScratch } from './segments';
import type { ContactManifoldData, WorldShape } from './types';

/** sin² of the angle below which two capsule axes count as parallel (≈ 5.7°): side-by-side capsules
 *  then get a 2-point manifold. */
const PARALLEL_SIN2 = 0.01;

/** Core point pair → one contact. (ax..) core point of A, (bx..) of B. Returns 1 or 0. */
function corePoints(
  ax: number, ay: number, az: number, ra: number,
  bx: number, by: number, bz: number, rb: number,
  margin: number, out: ContactManifoldData, id: number,
  fbx: number, fby: number, fbz: number,
): number {
  let nx = bx - ax, ny = by - ay, nz = bz - az;
  const d2 = nx * nx + ny * ny + nz * nz;
  const rs = ra + rb + margin;
  if (d2 > rs * rs) return 0;
  const d = Math.sqrt(d2);
  if (d > 1e-12) { nx /= d; ny /= d; nz /= d; } else { nx = fbx; ny = fby; nz = fbz; }
  setNormal(out, nx, ny, nz);
  addPointA(out, ax + ra * nx, ay + ra * ny, az + ra * nz, ra + rb - d, id);
  return 1;
}

export function sphereSphere(a: WorldShape, b: WorldShape, margin: number, out: ContactManifoldData): number {
  out.count = 0;
  const pa = a.position, pb = b.position;
  return corePoints(pa[0]!, pa[1]!, pa[2]!, a.radius, pb[0]!, pb[1]!, pb[2]!, b.radius, margin, out, 0, 0, 1, 0);
}

/** A = sphere, B = capsule. */
export function sphereCapsule(a: WorldShape, b: WorldShape, margin: number, out: ContactManifoldData): number {
  out.count = 0;
  const pa = a.position, pb = b.position, m = b.matrix, ax = b.axis, h = b.halfHeight;
  const ux = m[ax]!, uy = m[3 + ax]!, uz = m[6 + ax]!;
  const p0x = pb[0]! - h * ux, p0y = pb[1]! - h * uy, p0z = pb[2]! - h * uz;
  const t = closestOnSegment(p0x, p0y, p0z, 2 * h * ux, 2 * h * uy, 2 * h * uz, pa[0]!, pa[1]!, pa[2]!);
  const qx = p0x + 2 * h * t * ux, qy = p0y + 2 * h * t * uy, qz = p0z + 2 * h * t * uz;
  // Sphere centre on the axis: any direction perpendicular to the capsule is right; take one fixed in
  // the capsule's frame so it is stable.
  const px = (ax + 1) % 3;
  return corePoints(pa[0]!, pa[1]!, pa[2]!, a.radius, qx, qy, qz, b.radius, margin, out, 0, m[px]!, m[3 + px]!, m[6 + px]!);
}

export function capsuleCapsule(a: WorldShape, b: WorldShape, margin: number, out: ContactManifoldData): number {
  out.count = 0;
  const pa = a.position, ma = a.matrix, ha = a.halfHeight, axA = a.axis;
  const pb = b.position, mb = b.matrix, hb = b.halfHeight, axB = b.axis;
  const ux = ma[axA]!, uy = ma[3 + axA]!, uz = ma[6 + axA]!;
  const vx = mb[axB]!, vy = mb[3 + axB]!, vz = mb[6 + axB]!;
  const a0x = pa[0]! - ha * ux, a0y = pa[1]! - ha * uy, a0z = pa[2]! - ha * uz;
  const b0x = pb[0]! - hb * vx, b0y = pb[1]! - hb * vy, b0z = pb[2]! - hb * vz;
  const dax = 2 * ha * ux, day = 2 * ha * uy, daz = 2 * ha * uz;
  const dbx = 2 * hb * vx, dby = 2 * hb * vy, dbz = 2 * hb * vz;
  closestSegmentSegment(a0x, a0y, a0z, dax, day, daz, b0x, b0y, b0z, dbx, dby, dbz);
  const s = segScratch.s, t = segScratch.t;
  const cax = a0x + s * dax, cay = a0y + s * day, caz = a0z + s * daz;
  const cbx = b0x + t * dbx, cby = b0y + t * dby, cbz = b0z + t * dbz;
  // Fallback normal when the axes intersect: perpendicular to both, pointing from A's centre to B's.
  let fx = uy * vz - uz * vy, fy = uz * vx - ux * vz, fz = ux * vy - uy * vx;
  const fl = Math.sqrt(fx * fx + fy * fy + fz * fz);
  const sin2 = fl * fl;
  if (fl > 1e-9) { fx /= fl; fy /= fl; fz /= fl; } else {
    const px = (axA + 1) % 3; fx = ma[px]!; fy = ma[3 + px]!; fz = ma[6 + px]!;
  }
  if (fx * (pb[0]! - pa[0]!) + fy * (pb[1]! - pa[1]!) + fz * (pb[2]! - pa[2]!) < 0) { fx = -fx; fy = -fy; fz = -fz; }
  const n1 = corePoints(cax, cay, caz, a.radius, cbx, cby, cbz, b.radius, margin, out, 0, fx, fy, fz);
  if (n1 === 0 || sin2 > PARALLEL_SIN2 || ha === 0 || hb === 0) return n1;

  // Nearly parallel: replace the single point by the two ends of the overlap interval on A, each with its
  // own distance to B's segment measured along the common normal.
  const n = out.normal, nx = n[0]!, ny = n[1]!, nz = n[2]!;
  const la = 4 * ha * ha;
  let s0 = ((b0x - a0x) * dax + (b0y - a0y) * day + (b0z - a0z) * daz) / la;
  let s1 = ((b0x + dbx - a0x) * dax + (b0y + dby - a0y) * day + (b0z + dbz - a0z) * daz) / la;
  if (s0 > s1) { const tmp = s0; s0 = s1; s1 = tmp; }
  s0 = s0 < 0 ? 0 : s0 > 1 ? 1 : s0;
  s1 = s1 < 0 ? 0 : s1 > 1 ? 1 : s1;
  if (s1 - s0 < 1e-6) return n1;
  out.count = 0;
  const rs = a.radius + b.radius;
  for (let k = 0; k < 2; k++) {
    const sk = k === 0 ? s0 : s1;
    const qx = a0x + sk * dax, qy = a0y + sk * day, qz = a0z + sk * daz;
    const tk = closestOnSegment(b0x, b0y, b0z, dbx, dby, dbz, qx, qy, qz);
    const gx = b0x + tk * dbx - qx, gy = b0y + tk * dby - qy, gz = b0z + tk * dbz - qz;
    const depth = rs - (gx * nx + gy * ny + gz * nz);
    if (depth < -margin) continue;
    addPointA(out, qx + a.radius * nx, qy + a.radius * ny, qz + a.radius * nz, depth, k + 1);
  }
  return out.count;
}
