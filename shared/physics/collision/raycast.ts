/**
 * Ray casts for picking: ray o + t·d (d normalised here), 0 ≤ t ≤ maxDistance, against one shape or the
 * ground plane. Analytic per kind: sphere (quadratic), capsule (infinite cylinder about the segment, then
 * the end spheres), box (slabs in the box frame), cylinder (side quadratic + cap discs in its frame),
 * ellipsoid (scaled to a unit sphere in its frame). A ray starting inside reports t = 0 with normal −d.
 */
import { ShapeKind, type RayHitData, type WorldShape } from './types';

export class RayHit implements RayHitData {
  distance = 0;
  readonly point = new Float64Array(3);
  readonly normal = new Float64Array(3);
}

// Local ray and best hit (shape frame).
let bestT = Infinity;
let bnx = 0, bny = 0, bnz = 0;

function consider(t: number, nx: number, ny: number, nz: number): void {
  if (t >= 0 && t < bestT) { bestT = t; bnx = nx; bny = ny; bnz = nz; }
}

/** Sphere of radius r at c (local): smallest root of |o + t·d − c|² = r² with the ray outside. */
function raySphere(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, cx: number, cy: number, cz: number, r: number): void {
  const mx = ox - cx, my = oy - cy, mz = oz - cz;
  const b = mx * dx + my * dy + mz * dz, c = mx * mx + my * my + mz * mz - r * r;
  if (c > 0 && b > 0) return;
  const disc = b * b - c;
  if (disc < 0) return;
  const t = -b - Math.sqrt(disc);
  if (t < 0) return; // inside: handled by the caller's inside test
  consider(t, (mx + t * dx) / r, (my + t * dy) / r, (mz + t * dz) / r);
}

function insideLocal(s: WorldShape, x: number, y: number, z: number): boolean {
  const e = s.halfExtents;
  switch (s.kind) {
    case ShapeKind.sphere: return x * x + y * y + z * z < s.radius * s.radius;
    case ShapeKind.box: return Math.abs(x) < e[0]! && Math.abs(y) < e[1]! && Math.abs(z) < e[2]!;
    case ShapeKind.ellipsoid: return (x / e[0]!) ** 2 + (y / e[1]!) ** 2 + (z / e[2]!) ** 2 < 1;
    default: {
      const a = s.axis, u = a === 0 ? x : a === 1 ? y : z;
      const q = a === 0 ? y * y + z * z : a === 1 ? x * x + z * z : x * x + y * y;
      if (s.kind === ShapeKind.cylinder) return Math.abs(u) < s.halfHeight && q < s.radius * s.radius;
      const cu = Math.max(-s.halfHeight, Math.min(s.halfHeight, u));
      return q + (u - cu) * (u - cu) < s.radius * s.radius;
    }
  }
}

/** Local-frame cast into bestT/bn*. Capsule and cylinder are handled with their axis renamed to local y. */
function castLocal(s: WorldShape, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): void {
  switch (s.kind) {
    case ShapeKind.sphere: raySphere(ox, oy, oz, dx, dy, dz, 0, 0, 0, s.radius); return;
    case ShapeKind.box: {
      const e = s.halfExtents;
      let tmin = -Infinity, tmax = Infinity, axis = -1, sgn = 0;
      for (let k = 0; k < 3; k++) {
        const o = k === 0 ? ox : k === 1 ? oy : oz, d = k === 0 ? dx : k === 1 ? dy : dz, h = e[k]!;
        if (Math.abs(d) < 1e-300) { if (o < -h || o > h) return; continue; }
        let t1 = (-h - o) / d, t2 = (h - o) / d, s1 = -1;
        if (t1 > t2) { const t = t1; t1 = t2; t2 = t; s1 = 1; }
        if (t1 > tmin) { tmin = t1; axis = k; sgn = s1; }
        if (t2 < tmax) tmax = t2;
        if (tmin > tmax) return;
      }
      if (axis >= 0) consider(tmin, axis === 0 ? sgn : 0, axis === 1 ? sgn : 0, axis === 2 ? sgn : 0);
      return;
    }
    case ShapeKind.ellipsoid: {
      // Scale space by E⁻¹: the ellipsoid becomes the unit sphere; t is unchanged; normal ∝ E⁻²·p.
      const e = s.halfExtents;
      const sx = ox / e[0]!, sy = oy / e[1]!, sz = oz / e[2]!, ux = dx / e[0]!, uy = dy / e[1]!, uz = dz / e[2]!;
      const a = ux * ux + uy * uy + uz * uz, b = sx * ux + sy * uy + sz * uz, c = sx * sx + sy * sy + sz * sz - 1;
      const disc = b * b - a * c;
      if (disc < 0) return;
      const t = (-b - Math.sqrt(disc)) / a;
      if (t < 0) return;
      let nx = (ox + t * dx) / (e[0]! * e[0]!), ny = (oy + t * dy) / (e[1]! * e[1]!), nz = (oz + t * dz) / (e[2]! * e[2]!);
      const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
      nx /= l; ny /= l; nz /= l;
      consider(t, nx, ny, nz);
      return;
    }
    default: {
      // Rename axes so the shape axis is "u" and the other two are "p", "q" (cyclic, keeps handedness).
      const a = s.axis, h = s.halfHeight, r = s.radius;
      const ou = a === 0 ? ox : a === 1 ? oy : oz, op = a === 0 ? oy : a === 1 ? oz : ox, oq = a === 0 ? oz : a === 1 ? ox : oy;
      const du = a === 0 ? dx : a === 1 ? dy : dz, dp = a === 0 ? dy : a === 1 ? dz : dx, dq = a === 0 ? dz : a === 1 ? dx : dy;
      const before = bestT;
      // Infinite cylinder side: (op + t dp)² + (oq + t dq)² = r², hit accepted where |u| ≤ h.
      const A = dp * dp + dq * dq;
      if (A > 1e-300) {
        const B = op * dp + oq * dq, C = op * op + oq * oq - r * r, disc = B * B - A * C;
        if (disc >= 0) {
          const t = (-B - Math.sqrt(disc)) / A;
          const u = ou + t * du;
          if (t >= 0 && Math.abs(u) <= h) consider(t, 0, (op + t * dp) / r, (oq + t * dq) / r);
        }
      }
      if (s.kind === ShapeKind.cylinder) {
        // Cap discs u = ±h.
        if (Math.abs(du) > 1e-300) {
          for (let k = 0; k < 2; k++) {
            const sg = k === 0 ? -1 : 1;
            const t = (sg * h - ou) / du;
            const p = op + t * dp, q = oq + t * dq;
            if (t >= 0 && p * p + q * q <= r * r && du * sg < 0) consider(t, sg, 0, 0);
          }
        }
      } else {
        // Capsule end spheres, in (u, p, q) coordinates.
        raySphere(ou, op, oq, du, dp, dq, -h, 0, 0, r);
        raySphere(ou, op, oq, du, dp, dq, h, 0, 0, r);
      }
      if (bestT < before) {
        // Back from (u, p, q) to (x, y, z).
        const nu = bnx, np = bny, nq = bnz;
        if (a === 0) { bnx = nu; bny = np; bnz = nq; } else if (a === 1) { bny = nu; bnz = np; bnx = nq; } else { bnz = nu; bnx = np; bny = nq; }
      }
    }
  }
}

/** Ray against one world shape. `origin`, `direction` are [x, y, z]-like. Returns true and fills `out`
 *  on a hit within maxDistance. */
export function raycastShape(s: WorldShape, origin: ArrayLike<number>, direction: ArrayLike<number>, maxDistance: number, out: RayHitData): boolean {
  let dx = direction[0]!, dy = direction[1]!, dz = direction[2]!;
  const dl = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (!(dl > 0) || !Number.isFinite(dl)) throw new Error(`raycast: direction must be a finite non-zero vector (got ${dx}, ${dy}, ${dz})`);
  dx /= dl; dy /= dl; dz /= dl;
  const p = s.position, m = s.matrix;
  const rx = origin[0]! - p[0]!, ry = origin[1]! - p[1]!, rz = origin[2]! - p[2]!;
  // Local = Rᵀ·(world − p).
  const ox = m[0]! * rx + m[3]! * ry + m[6]! * rz, oy = m[1]! * rx + m[4]! * ry + m[7]! * rz, oz = m[2]! * rx + m[5]! * ry + m[8]! * rz;
  if (insideLocal(s, ox, oy, oz)) {
    out.distance = 0;
    out.point[0] = origin[0]!; out.point[1] = origin[1]!; out.point[2] = origin[2]!;
    out.normal[0] = -dx; out.normal[1] = -dy; out.normal[2] = -dz;
    return true;
  }
  const lx = m[0]! * dx + m[3]! * dy + m[6]! * dz, ly = m[1]! * dx + m[4]! * dy + m[7]! * dz, lz = m[2]! * dx + m[5]! * dy + m[8]! * dz;
  bestT = Infinity;
  castLocal(s, ox, oy, oz, lx, ly, lz);
  if (!(bestT <= maxDistance)) return false;
  out.distance = bestT;
  out.point[0] = origin[0]! + bestT * dx; out.point[1] = origin[1]! + bestT * dy; out.point[2] = origin[2]! + bestT * dz;
  out.normal[0] = m[0]! * bnx + m[1]! * bny + m[2]! * bnz;
  out.normal[1] = m[3]! * bnx + m[4]! * bny + m[5]! * bnz;
  out.normal[2] = m[6]! * bnx + m[7]! * bny + m[8]! * bnz;
  return true;
}

/** Ray against the ground half-space y ≤ height (normal +y). */
export function raycastGround(height: number, origin: ArrayLike<number>, direction: ArrayLike<number>, maxDistance: number, out: RayHitData): boolean {
  const dl = Math.hypot(direction[0]!, direction[1]!, direction[2]!);
  if (!(dl > 0) || !Number.isFinite(dl)) throw new Error(`raycast: direction must be a finite non-zero vector`);
  const dx = direction[0]! / dl, dy = direction[1]! / dl, dz = direction[2]! / dl;
  const oy = origin[1]! - height;
  let t: number;
  if (oy < 0) t = 0;
  else if (dy >= 0) return false;
  else t = -oy / dy;
  if (t > maxDistance) return false;
  out.distance = t;
  out.point[0] = origin[0]! + t * dx; out.point[1] = origin[1]! + t * dy; out.point[2] = origin[2]! + t * dz;
  if (t === 0 && oy < 0) { out.normal[0] = -dx; out.normal[1] = -dy; out.normal[2] = -dz; }
  else { out.normal[0] = 0; out.normal[1] = 1; out.normal[2] = 0; }
  return true;
}
