/** Rigid transforms (rotation then translation): world = p + q·local. */
import { quatConj, quatMul, quatMulTo, quatRotate, quatRotateInverseTo, quatRotateTo, type Quat, type ReadonlyQuat } from './quat';
import { add, sub, type ReadonlyVec3, type Vec3 } from './vec3';

export interface Transform { position: Vec3; rotation: Quat }
export interface ReadonlyTransform { readonly position: ReadonlyVec3; readonly rotation: ReadonlyQuat }

export const identityTransform = (): Transform => ({ position: [0, 0, 0], rotation: [0, 0, 0, 1] });

export const transformPoint = (t: ReadonlyTransform, p: ReadonlyVec3): Vec3 => add(t.position, quatRotate(t.rotation, p));
export const inverseTransformPoint = (t: ReadonlyTransform, p: ReadonlyVec3): Vec3 =>
  quatRotate(quatConj(t.rotation), sub(p, t.position));

/** a·b: b expressed in a's frame, returned in a's parent frame. */
export const composeTransforms = (a: ReadonlyTransform, b: ReadonlyTransform): Transform => ({
  position: transformPoint(a, b.position),
  rotation: quatMul(a.rotation, b.rotation),
});

export function invertTransform(t: ReadonlyTransform): Transform {
  const qi = quatConj(t.rotation);
  const p = quatRotate(qi, t.position);
  return { position: [-p[0], -p[1], -p[2]], rotation: qi };
}

// ------------------------------------------------------------------------------- out-parameter forms
// The same arithmetic as the functions above (results bit for bit equal), written into `out` — for per-step
// code (IK, gait) that must not make garbage. Inputs are read before `out` is written, so `out` may alias.

const tmp: Vec3 = [0, 0, 0];

/** transformPoint(t, p) into out. */
export function transformPointTo(out: Vec3, t: ReadonlyTransform, p: ReadonlyVec3): Vec3 {
  quatRotateTo(tmp, t.rotation, p);
  const x = t.position[0] + tmp[0], y = t.position[1] + tmp[1], z = t.position[2] + tmp[2];
  out[0] = x; out[1] = y; out[2] = z; return out;
}

/** inverseTransformPoint(t, p) into out. */
export function inverseTransformPointTo(out: Vec3, t: ReadonlyTransform, p: ReadonlyVec3): Vec3 {
  tmp[0] = p[0] - t.position[0]; tmp[1] = p[1] - t.position[1]; tmp[2] = p[2] - t.position[2];
  return quatRotateInverseTo(out, t.rotation, tmp);
}

/** composeTransforms(a, b) into out. */
export function composeTransformsTo(out: Transform, a: ReadonlyTransform, b: ReadonlyTransform): Transform {
  quatRotateTo(tmp, a.rotation, b.position);
  const x = a.position[0] + tmp[0], y = a.position[1] + tmp[1], z = a.position[2] + tmp[2];
  quatMulTo(out.rotation, a.rotation, b.rotation);
  out.position[0] = x; out.position[1] = y; out.position[2] = z;
  return out;
}

/** invertTransform(t) into out. */
export function invertTransformTo(out: Transform, t: ReadonlyTransform): Transform {
  quatRotateInverseTo(tmp, t.rotation, t.position);
  const q = t.rotation, qx = -q[0], qy = -q[1], qz = -q[2], qw = q[3];
  out.position[0] = -tmp[0]; out.position[1] = -tmp[1]; out.position[2] = -tmp[2];
  out.rotation[0] = qx; out.rotation[1] = qy; out.rotation[2] = qz; out.rotation[3] = qw;
  return out;
}

export const newTransform = (): Transform => ({ position: [0, 0, 0], rotation: [0, 0, 0, 1] });
