/** 4×4 affine matrices, column-major like glTF (element (row r, column c) at index c·4 + r), and TRS
 *  (translation, rotation, scale) as glTF nodes store them. Used by the glTF reader and the asset
 *  generator; the solver works with Transform (no scale). */
import { quatNormalize, type Quat, type ReadonlyQuat } from './quat';
import type { ReadonlyVec3, Vec3 } from './vec3';

export type Mat4 = number[];

/** A glTF node transform: M = T · R · S. */
export interface TRS { translation: Vec3; rotation: Quat; scale: Vec3 }
export interface ReadonlyTRS { readonly translation: ReadonlyVec3; readonly rotation: ReadonlyQuat; readonly scale: ReadonlyVec3 }

export const trsIdentity = (): TRS => ({ translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] });

export const mat4Identity = (): Mat4 => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

export function mat4FromTRS(t: ReadonlyTRS): Mat4 {
  const [x, y, z, w] = t.rotation;
  const [sx, sy, sz] = t.scale;
  const xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  return [
    (1 - 2 * (yy + zz)) * sx, 2 * (xy + wz) * sx, 2 * (xz - wy) * sx, 0,
    2 * (xy - wz) * sy, (1 - 2 * (xx + zz)) * sy, 2 * (yz + wx) * sy, 0,
    2 * (xz + wy) * sz, 2 * (yz - wx) * sz, (1 - 2 * (xx + yy)) * sz, 0,
    t.translation[0], t.translation[1], t.translation[2], 1,
  ];
}

/** a · b (apply b first). */
export function mat4Mul(a: readonly number[], b: readonly number[]): Mat4 {
  const out = new Array<number>(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      out[c * 4 + r] = a[r]! * b[c * 4]! + a[4 + r]! * b[c * 4 + 1]! + a[8 + r]! * b[c * 4 + 2]! + a[12 + r]! * b[c * 4 + 3]!;
    }
  }
  return out;
}

/** General inverse (cofactors). Returns null for a singular matrix (|det| < 1e-20). */
export function mat4Invert(m: readonly number[]): Mat4 | null {
  const [a00, a01, a02, a03, a10, a11, a12, a13, a20, a21, a22, a23, a30, a31, a32, a33] = m as number[] as [
    number, number, number, number, number, number, number, number, number, number, number, number, number, number, number, number];
  const b00 = a00 * a11 - a01 * a10, b01 = a00 * a12 - a02 * a10, b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11, b04 = a01 * a13 - a03 * a11, b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30, b07 = a20 * a32 - a22 * a30, b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31, b10 = a21 * a33 - a23 * a31, b11 = a22 * a33 - a23 * a32;
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-20) return null;
  const d = 1 / det;
  return [
    (a11 * b11 - a12 * b10 + a13 * b09) * d, (a02 * b10 - a01 * b11 - a03 * b09) * d,
    (a31 * b05 - a32 * b04 + a33 * b03) * d, (a22 * b04 - a21 * b05 - a23 * b03) * d,
    (a12 * b08 - a10 * b11 - a13 * b07) * d, (a00 * b11 - a02 * b08 + a03 * b07) * d,
    (a32 * b02 - a30 * b05 - a33 * b01) * d, (a20 * b05 - a22 * b02 + a23 * b01) * d,
    (a10 * b10 - a11 * b08 + a13 * b06) * d, (a01 * b08 - a00 * b10 - a03 * b06) * d,
    (a30 * b04 - a31 * b02 + a33 * b00) * d, (a21 * b02 - a20 * b04 - a23 * b00) * d,
    (a11 * b07 - a10 * b09 - a12 * b06) * d, (a00 * b09 - a01 * b07 + a02 * b06) * d,
    (a31 * b01 - a30 * b03 - a32 * b00) * d, (a20 * b03 - a21 * b01 + a22 * b00) * d,
  ];
}

export const mat4TransformPoint = (m: readonly number[], p: ReadonlyVec3): Vec3 => [
  m[0]! * p[0] + m[4]! * p[1] + m[8]! * p[2] + m[12]!,
  m[1]! * p[0] + m[5]! * p[1] + m[9]! * p[2] + m[13]!,
  m[2]! * p[0] + m[6]! * p[1] + m[10]! * p[2] + m[14]!,
];

/** M = T·R·S back to TRS. Exact for matrices built from a TRS; with shear (non-uniform scale under a
 *  rotated parent) the rotation is the nearest one of the normalised columns. A negative determinant
 *  (mirror) is put into scale x. */
export function mat4ToTRS(m: readonly number[]): TRS {
  let sx = Math.hypot(m[0]!, m[1]!, m[2]!);
  const sy = Math.hypot(m[4]!, m[5]!, m[6]!);
  const sz = Math.hypot(m[8]!, m[9]!, m[10]!);
  const det = m[0]! * (m[5]! * m[10]! - m[6]! * m[9]!) - m[4]! * (m[1]! * m[10]! - m[2]! * m[9]!) + m[8]! * (m[1]! * m[6]! - m[2]! * m[5]!);
  if (det < 0) sx = -sx;
  const ix = sx !== 0 ? 1 / sx : 0, iy = sy !== 0 ? 1 / sy : 0, iz = sz !== 0 ? 1 / sz : 0;
  // Rotation matrix entries r(row)(col).
  const r00 = m[0]! * ix, r10 = m[1]! * ix, r20 = m[2]! * ix;
  const r01 = m[4]! * iy, r11 = m[5]! * iy, r21 = m[6]! * iy;
  const r02 = m[8]! * iz, r12 = m[9]! * iz, r22 = m[10]! * iz;
  const trace = r00 + r11 + r22;
  let q: Quat;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    q = [(r21 - r12) * s, (r02 - r20) * s, (r10 - r01) * s, 0.25 / s];
  } else if (r00 > r11 && r00 > r22) {
    const s = 2 * Math.sqrt(Math.max(0, 1 + r00 - r11 - r22));
    q = [0.25 * s, (r01 + r10) / s, (r02 + r20) / s, (r21 - r12) / s];
  } else if (r11 > r22) {
    const s = 2 * Math.sqrt(Math.max(0, 1 + r11 - r00 - r22));
    q = [(r01 + r10) / s, 0.25 * s, (r12 + r21) / s, (r02 - r20) / s];
  } else {
    const s = 2 * Math.sqrt(Math.max(0, 1 + r22 - r00 - r11));
    q = [(r02 + r20) / s, (r12 + r21) / s, 0.25 * s, (r10 - r01) / s];
  }
  q = quatNormalize(q);
  // Canonical sign (w ≥ 0) so equal rotations compare equal.
  if (q[3] < 0) q = [-q[0], -q[1], -q[2], -q[3]];
  return { translation: [m[12]!, m[13]!, m[14]!], rotation: q, scale: [sx, sy, sz] };
}
