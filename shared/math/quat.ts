/** Unit quaternions as [x, y, z, w] tuples (glTF order). Rotation of v by q: q·v·q*. */
import { cross, dot, normalize, type ReadonlyVec3, type Vec3 } from './vec3';

export type Quat = [number, number, number, number];
export type ReadonlyQuat = readonly [number, number, number, number];

export const quatIdentity = (): Quat => [0, 0, 0, 1];

export function quatMul(a: ReadonlyQuat, b: ReadonlyQuat): Quat {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

export const quatConj = (q: ReadonlyQuat): Quat => [-q[0], -q[1], -q[2], q[3]];

export function quatNormalize(q: ReadonlyQuat): Quat {
  const l = Math.hypot(q[0], q[1], q[2], q[3]);
  return l > 1e-12 ? [q[0] / l, q[1] / l, q[2] / l, q[3] / l] : [0, 0, 0, 1];
}

/** v rotated by q: v + 2w(u×v) + 2u×(u×v), u = vector part. */
export function quatRotate(q: ReadonlyQuat, v: ReadonlyVec3): Vec3 {
  const u: Vec3 = [q[0], q[1], q[2]];
  const t = cross(u, v);
  t[0] *= 2; t[1] *= 2; t[2] *= 2;
  const c = cross(u, t);
  return [v[0] + q[3] * t[0] + c[0], v[1] + q[3] * t[1] + c[1], v[2] + q[3] * t[2] + c[2]];
}

/** Rotation of `angle` radians about the unit `axis` (right-hand rule). */
export function quatFromAxisAngle(axis: ReadonlyVec3, angle: number): Quat {
  const n = normalize(axis);
  const s = Math.sin(angle / 2);
  return [n[0] * s, n[1] * s, n[2] * s, Math.cos(angle / 2)];
}

/** Rotation vector (axis·angle, angle in (−π, π]) of q: the shortest way, so no 350° errors. */
export function quatToRotationVector(q: ReadonlyQuat): Vec3 {
  // q and −q are the same rotation; pick w ≥ 0 for the short arc.
  const sgn = q[3] < 0 ? -1 : 1;
  const x = q[0] * sgn, y = q[1] * sgn, z = q[2] * sgn, w = q[3] * sgn;
  const s = Math.hypot(x, y, z);
  if (s < 1e-9) return [2 * x, 2 * y, 2 * z]; // small-angle limit: θ ≈ 2·|v|
  const angle = 2 * Math.atan2(s, w);
  const k = angle / s;
  return [x * k, y * k, z * k];
}

/** Inverse of quatToRotationVector. */
export function quatFromRotationVector(r: ReadonlyVec3): Quat {
  const angle = Math.hypot(r[0], r[1], r[2]);
  if (angle < 1e-12) return quatNormalize([r[0] / 2, r[1] / 2, r[2] / 2, 1]);
  const s = Math.sin(angle / 2) / angle;
  return [r[0] * s, r[1] * s, r[2] * s, Math.cos(angle / 2)];
}

/** Shortest rotation taking unit vector a onto unit vector b. */
export function quatFromTo(a: ReadonlyVec3, b: ReadonlyVec3): Quat {
  const d = dot(a, b);
  if (d < -0.999999) {
    const axis = Math.abs(a[0]) < 0.9 ? cross(a, [1, 0, 0]) : cross(a, [0, 1, 0]);
    return quatFromAxisAngle(axis, Math.PI);
  }
  const c = cross(a, b);
  return quatNormalize([c[0], c[1], c[2], 1 + d]);
}

export function quatSlerp(a: ReadonlyQuat, b: ReadonlyQuat, t: number): Quat {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const bb: Quat = d < 0 ? [-b[0], -b[1], -b[2], -b[3]] : [b[0], b[1], b[2], b[3]];
  d = Math.abs(d);
  if (d > 0.9995) {
    return quatNormalize([
      a[0] + (bb[0] - a[0]) * t, a[1] + (bb[1] - a[1]) * t, a[2] + (bb[2] - a[2]) * t, a[3] + (bb[3] - a[3]) * t,
    ]);
  }
  const th = Math.acos(d);
  const s = Math.sin(th);
  const wa = Math.sin((1 - t) * th) / s, wb = Math.sin(t * th) / s;
  return [a[0] * wa + bb[0] * wb, a[1] * wa + bb[1] * wb, a[2] * wa + bb[2] * wb, a[3] * wa + bb[3] * wb];
}

/** Angle in [0, π] between two orientations. */
export function quatAngleBetween(a: ReadonlyQuat, b: ReadonlyQuat): number {
  const d = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  return 2 * Math.acos(Math.min(1, d));
}

/** Smallest signed difference a − b of two angles, in (−π, π]. */
export function wrapAngle(a: number): number {
  const twoPi = 2 * Math.PI;
  let r = (a + Math.PI) % twoPi;
  if (r < 0) r += twoPi;
  return r - Math.PI;
}

/** Row-major 3×3 rotation matrix of q. */
export function quatToMat3(q: ReadonlyQuat): number[] {
  const [x, y, z, w] = q;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
    2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
    2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y),
  ];
}

// ------------------------------------------------------------------------------- out-parameter forms
// The same arithmetic as the functions above, in the same order (results bit for bit equal, signed zeros
// included), written into `out` — for per-step code (IK, gait) that must not make garbage. Every input is
// read before `out` is written, so `out` may be one of the inputs.

export function quatMulTo(out: Quat, a: ReadonlyQuat, b: ReadonlyQuat): Quat {
  const ax = a[0], ay = a[1], az = a[2], aw = a[3];
  const bx = b[0], by = b[1], bz = b[2], bw = b[3];
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
  return out;
}

export function quatConjTo(out: Quat, q: ReadonlyQuat): Quat {
  const x = -q[0], y = -q[1], z = -q[2], w = q[3];
  out[0] = x; out[1] = y; out[2] = z; out[3] = w; return out;
}

export function copyQuat(out: Quat, q: ReadonlyQuat): Quat { out[0] = q[0]; out[1] = q[1]; out[2] = q[2]; out[3] = q[3]; return out; }

export function quatNormalizeTo(out: Quat, q: ReadonlyQuat): Quat {
  const x = q[0], y = q[1], z = q[2], w = q[3];
  const l = Math.hypot(x, y, z, w);
  if (l > 1e-12) { out[0] = x / l; out[1] = y / l; out[2] = z / l; out[3] = w / l; } else { out[0] = 0; out[1] = 0; out[2] = 0; out[3] = 1; }
  return out;
}

/** The rotation by the unit quaternion (ux, uy, uz, w) of v, into out (v + 2w(u×v) + 2u×(u×v)). */
function rotateInto(out: Vec3, ux: number, uy: number, uz: number, w: number, v: ReadonlyVec3): Vec3 {
  const vx = v[0], vy = v[1], vz = v[2];
  let tx = uy * vz - uz * vy, ty = uz * vx - ux * vz, tz = ux * vy - uy * vx;
  tx *= 2; ty *= 2; tz *= 2;
  const cx = uy * tz - uz * ty, cy = uz * tx - ux * tz, cz = ux * ty - uy * tx;
  out[0] = vx + w * tx + cx; out[1] = vy + w * ty + cy; out[2] = vz + w * tz + cz;
  return out;
}

/** quatRotate(q, v) into out. */
export function quatRotateTo(out: Vec3, q: ReadonlyQuat, v: ReadonlyVec3): Vec3 {
  return rotateInto(out, q[0], q[1], q[2], q[3], v);
}

/** quatRotate(quatConj(q), v) into out (the inverse rotation). */
export function quatRotateInverseTo(out: Vec3, q: ReadonlyQuat, v: ReadonlyVec3): Vec3 {
  return rotateInto(out, -q[0], -q[1], -q[2], q[3], v);
}

/** quatFromAxisAngle(axis, angle) into out. */
export function quatFromAxisAngleTo(out: Quat, axis: ReadonlyVec3, angle: number): Quat {
  const l = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  let nx = 1, ny = 0, nz = 0;
  if (l > 1e-12) { nx = axis[0] / l; ny = axis[1] / l; nz = axis[2] / l; }
  const s = Math.sin(angle / 2);
  out[0] = nx * s; out[1] = ny * s; out[2] = nz * s; out[3] = Math.cos(angle / 2);
  return out;
}

/** quatFromRotationVector(r) into out. */
export function quatFromRotationVectorTo(out: Quat, r: ReadonlyVec3): Quat {
  const x = r[0], y = r[1], z = r[2];
  const angle = Math.hypot(x, y, z);
  if (angle < 1e-12) { out[0] = x / 2; out[1] = y / 2; out[2] = z / 2; out[3] = 1; return quatNormalizeTo(out, out); }
  const s = Math.sin(angle / 2) / angle;
  out[0] = x * s; out[1] = y * s; out[2] = z * s; out[3] = Math.cos(angle / 2);
  return out;
}

/** quatFromTo(a, b) into out. */
export function quatFromToTo(out: Quat, a: ReadonlyVec3, b: ReadonlyVec3): Quat {
  const d = dot(a, b);
  if (d < -0.999999) return copyQuat(out, quatFromTo(a, b));
  const cx = a[1] * b[2] - a[2] * b[1], cy = a[2] * b[0] - a[0] * b[2], cz = a[0] * b[1] - a[1] * b[0];
  out[0] = cx; out[1] = cy; out[2] = cz; out[3] = 1 + d;
  return quatNormalizeTo(out, out);
}
