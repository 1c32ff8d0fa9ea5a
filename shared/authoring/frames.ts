/** Small rotation helpers the authoring functions share: orthonormal bases ↔ quaternions. */
import { quatNormalize, type Quat } from '../math/quat';
import { cross, dot, normalize, scale, sub, type ReadonlyVec3, type Vec3 } from '../math/vec3';

/** The rotation whose columns are the orthonormal right-handed basis x, y, z (Shepperd's method). */
export function quatFromBasis(x: ReadonlyVec3, y: ReadonlyVec3, z: ReadonlyVec3): Quat {
  const m00 = x[0], m10 = x[1], m20 = x[2], m01 = y[0], m11 = y[1], m21 = y[2], m02 = z[0], m12 = z[1], m22 = z[2];
  const tr = m00 + m11 + m22;
  let q: Quat;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  q = quatNormalize(q);
  return q[3] < 0 ? [-q[0], -q[1], -q[2], -q[3]] : q;
}

/** `v` with its component along unit `axis` removed, normalised; null when v is (nearly) parallel. */
export function perpendicularPart(v: ReadonlyVec3, axis: ReadonlyVec3): Vec3 | null {
  const p = sub(v, scale(axis, dot(v, axis)));
  const len = Math.hypot(p[0], p[1], p[2]);
  return len < 1e-6 ? null : scale(p, 1 / len);
}

/** A right-handed frame with X = `x` and Y as close to `yHint` as possible (fallbacks keep it defined). */
export function frameFromXY(x: ReadonlyVec3, ...yHints: ReadonlyVec3[]): Quat {
  const X = normalize(x);
  let Y: Vec3 | null = null;
  for (const h of [...yHints, [0, 1, 0] as const, [0, 0, 1] as const]) { Y = perpendicularPart(h, X); if (Y) break; }
  const Z = cross(X, Y!);
  return quatFromBasis(X, Y!, Z);
}

/** Round for stable file text (1e-9 m is far below anything physical); +0 turns −0 into 0. */
export const round9 = (x: number): number => Math.round(x * 1e9) / 1e9 + 0;
export const round3v = (v: ReadonlyVec3): [number, number, number] => [round9(v[0]), round9(v[1]), round9(v[2])];
export function round4q(q: readonly number[]): [number, number, number, number] {
  let n = quatNormalize(q as Quat);
  if (n[3] < 0) n = [-n[0], -n[1], -n[2], -n[3]];
  return [round9(n[0]), round9(n[1]), round9(n[2]), round9(n[3])];
}

/** Deep copy of plain JSON data (shared/ has no DOM or Node globals, so no structuredClone). */
export const cloneJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
