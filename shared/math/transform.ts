/** Rigid transforms (rotation then translation): world = p + q·local. */
import { quatConj, quatMul, quatRotate, type Quat, type ReadonlyQuat } from './quat';
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
