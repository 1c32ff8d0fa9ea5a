/**
 * Every shape against the static ground half-space y ≤ h. The shape is A, the ground is B, so the normal
 * is (0, −1, 0) and a point's depth is h − y of the shape's lowest point there (+ margin accepted).
 * Flat contacts get several points so nothing rocks: box → its corners within the margin (4 when flat),
 * capsule → both segment ends (2 when lying), cylinder → 4 rim points of its lower cap when standing, the
 * 2 ends of its lowest line when lying, the lowest rim points otherwise.
 */
import { addPointA, setNormal } from './manifold';
import { ShapeKind, type ContactManifoldData, type WorldShape } from './types';

/** |axis·up| above which a cylinder counts as standing on a cap (≈ 45°): it then gets 4 rim points. */
const CYLINDER_STANDING_COS = Math.SQRT1_2;

const cornerDepth = new Float64Array(8);
const cornerY = new Float64Array(24);
const order = new Int32Array(8);

export function collideGround(s: WorldShape, h: number, margin: number, out: ContactManifoldData): number {
  out.count = 0;
  if (s.aabb[1]! - s.aabbMargin > h + margin) return 0;
  setNormal(out, 0, -1, 0);
  const p = s.position, m = s.matrix;
  const px = p[0]!, py = p[1]!, pz = p[2]!;
  switch (s.kind) {
    case ShapeKind.sphere: {
      const d = h - (py - s.radius);
      if (d >= -margin) addPointA(out, px, py - s.radius, pz, d, 0);
      return out.count;
    }
    case ShapeKind.capsule: {
      const ax = s.axis, hh = s.halfHeight, r = s.radius;
      const uy = m[3 + ax]!;
      // Lower end first so a standing capsule's single point keeps id 0 / 1 by which end it is.
      for (let k = 0; k < 2; k++) {
        const sg = k === 0 ? -1 : 1;
        const ey = py + sg * hh * uy;
        const d = h - (ey - r);
        if (d >= -margin) addPointA(out, px + sg * hh * m[ax]!, ey - r, pz + sg * hh * m[6 + ax]!, d, k);
      }
      return out.count;
    }
    case ShapeKind.ellipsoid: {
      // Support point in direction −y: x = −E²Rᵀŷ / |ERᵀŷ| in the local frame (E = diag of semi-axes).
      const e = s.halfExtents;
      const gx = m[3]! * e[0]!, gy = m[4]! * e[1]!, gz = m[5]! * e[2]!;
      const l = Math.sqrt(gx * gx + gy * gy + gz * gz);
      const lx = -gx * e[0]! / l, ly = -gy * e[1]! / l, lz = -gz * e[2]! / l;
      const wy = py + m[3]! * lx + m[4]! * ly + m[5]! * lz;
      const d = h - wy;
      if (d >= -margin) addPointA(out, px + m[0]! * lx + m[1]! * ly + m[2]! * lz, wy, pz + m[6]! * lx + m[7]! * ly + m[8]! * lz, d, 0);
      return out.count;
    }
    case ShapeKind.box: return boxGround(s, h, margin, out);
    default: return cylinderGround(s, h, margin, out);
  }
}

function boxGround(s: WorldShape, h: number, margin: number, out: ContactManifoldData): number {
  const p = s.position, m = s.matrix, e = s.halfExtents;
  let n = 0;
  for (let c = 0; c < 8; c++) {
    const sx = c & 1 ? e[0]! : -e[0]!, sy = c & 2 ? e[1]! : -e[1]!, sz = c & 4 ? e[2]! : -e[2]!;
    const x = p[0]! + m[0]! * sx + m[1]! * sy + m[2]! * sz;
    const y = p[1]! + m[3]! * sx + m[4]! * sy + m[5]! * sz;
    const z = p[2]! + m[6]! * sx + m[7]! * sy + m[8]! * sz;
    cornerY[3 * c] = x; cornerY[3 * c + 1] = y; cornerY[3 * c + 2] = z;
    const d = h - y;
    cornerDepth[c] = d;
    if (d >= -margin) order[n++] = c;
  }
  // More than 4 only when the margin exceeds the box's height: keep the 4 deepest (ties by corner index,
  // so the choice is deterministic).
  if (n > 4) {
    for (let i = 1; i < n; i++) {
      const c = order[i]!;
      let j = i - 1;
      while (j >= 0 && cornerDepth[order[j]!]! < cornerDepth[c]!) { order[j + 1] = order[j]!; j--; }
      order[j + 1] = c;
    }
    n = 4;
  }
  for (let i = 0; i < n; i++) {
    const c = order[i]!;
    addPointA(out, cornerY[3 * c]!, cornerY[3 * c + 1]!, cornerY[3 * c + 2]!, cornerDepth[c]!, c);
  }
  return out.count;
}

function cylinderGround(s: WorldShape, h: number, margin: number, out: ContactManifoldData): number {
  const p = s.position, m = s.matrix, ax = s.axis, hh = s.halfHeight, r = s.radius;
  const ux = m[ax]!, uy = m[3 + ax]!, uz = m[6 + ax]!;
  // Direction in the cap plane toward the ground: w = −ŷ with its axis component removed.
  let wx = uy * ux, wy = -1 + uy * uy, wz = uy * uz;
  const wl = Math.sqrt(wx * wx + wy * wy + wz * wz);
  if (Math.abs(uy) >= CYLINDER_STANDING_COS) {
    // Standing: 4 rim points of the lower cap, 90° apart, starting at the lowest rim point (or, when the
    // cylinder is upright to 1e-9, at its local frame's next axis so the points do not spin).
    const sg = uy > 0 ? -1 : 1;
    const cx = p[0]! + sg * hh * ux, cy = p[1]! + sg * hh * uy, cz = p[2]! + sg * hh * uz;
    if (wl > 1e-9) { wx /= wl; wy /= wl; wz /= wl; } else {
      const k = (ax + 1) % 3; wx = m[k]!; wy = m[3 + k]!; wz = m[6 + k]!;
    }
    // v = u × w completes the cap frame.
    const vx = uy * wz - uz * wy, vy = uz * wx - ux * wz, vz = ux * wy - uy * wx;
    for (let k = 0; k < 4; k++) {
      const c = k === 0 ? 1 : k === 2 ? -1 : 0, sn = k === 1 ? 1 : k === 3 ? -1 : 0;
      const x = cx + r * (c * wx + sn * vx), y = cy + r * (c * wy + sn * vy), z = cz + r * (c * wz + sn * vz);
      const d = h - y;
      if (d >= -margin) addPointA(out, x, y, z, d, k);
    }
    return out.count;
  }
  // Lying or tilted: the lowest rim point of each cap (they form the lowest line when lying flat).
  wx /= wl; wy /= wl; wz /= wl;
  for (let k = 0; k < 2; k++) {
    const sg = k === 0 ? -1 : 1;
    const x = p[0]! + sg * hh * ux + r * wx, y = p[1]! + sg * hh * uy + r * wy, z = p[2]! + sg * hh * uz + r * wz;
    const d = h - y;
    if (d >= -margin) addPointA(out, x, y, z, d, 4 + k);
  }
  return out.count;
}
