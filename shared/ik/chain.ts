/**
 * A limb as the IK sees it: a root body and a list of joints, each joining the previous link (body A) to
 * the next (body B), described exactly as the physics joints are (shared/physics/types.ts): a joint frame
 * on each body whose X axis is the twist axis (ball) or hinge axis (hinge). At the neutral (rest) pose the
 * two frames coincide in world.
 *
 * Joint values are what the motors take (DESIGN.md "Motor semantics"): for a ball joint the rotation S of
 * frame B relative to frame A (identity at rest); for a hinge the signed angle θ of B about frame X
 * relative to A (0 at rest). Forward kinematics is then, link by link,
 *   B_world = A_world · frameA · J(value) · frameB⁻¹,   J(S) = S, J(θ) = rotation θ about X.
 */
import { quatConj, quatFromAxisAngle, quatFromAxisAngleTo, quatMul, quatMulTo, quatNormalizeTo, quatRotate, wrapAngle, type Quat, type ReadonlyQuat } from '../math/quat';
import { composeTransforms, composeTransformsTo, invertTransformTo, newTransform, transformPointTo, type ReadonlyTransform, type Transform } from '../math/transform';
import { type ReadonlyVec3, type Vec3 } from '../math/vec3';

export interface JointFrame { position: ReadonlyVec3; rotation: ReadonlyQuat }

export type ChainJoint =
  | { type: 'ball'; name?: string; frameA: JointFrame; frameB: JointFrame;
      /** Twist about frame X, [min, max] rad. */ twistLimit?: readonly [number, number];
      /** Elliptical swing cone half-angles about frame Y and Z, rad. */ swingLimit?: readonly [number, number] }
  | { type: 'hinge'; name?: string; frameA: JointFrame; frameB: JointFrame; /** [min, max] rad. */ limit?: readonly [number, number] };

export interface Chain {
  joints: readonly ChainJoint[];
  /** The point the IK places, in the last link's body frame (m). */
  effector: ReadonlyVec3;
}

export type JointValue = Quat | number;

const X_AXIS: ReadonlyVec3 = [1, 0, 0];

export const hingeRotation = (angle: number): Quat => quatFromAxisAngle(X_AXIS, angle);

export function jointRotation(value: JointValue): Quat {
  return typeof value === 'number' ? hingeRotation(value) : [value[0], value[1], value[2], value[3]];
}

export const restValues = (chain: Chain): JointValue[] =>
  chain.joints.map((j) => (j.type === 'ball' ? [0, 0, 0, 1] as Quat : 0));

const asTransform = (f: JointFrame): ReadonlyTransform => ({ position: f.position, rotation: f.rotation });

/** World transform of every link (index i = body B of joint i) and the effector point. */
export function forwardKinematics(chain: Chain, root: ReadonlyTransform, values: readonly JointValue[]): { links: Transform[]; effector: Vec3 } {
  const links: Transform[] = chain.joints.map(newTransform);
  const effector: Vec3 = [0, 0, 0];
  forwardKinematicsInto(chain, root, values, links, effector);
  return { links, effector };
}

const fkJoint: Transform = newTransform(), fkInvB: Transform = newTransform();
const fkRot: Quat = [0, 0, 0, 1];

/**
 * forwardKinematics written into `links` (at least one Transform per joint, overwritten) and `effector`,
 * without allocating: the same arithmetic in the same order, so the results are bit for bit equal. Returns
 * `effector`. `root` must not be one of `links`.
 */
export function forwardKinematicsInto(chain: Chain, root: ReadonlyTransform, values: readonly JointValue[], links: readonly Transform[], effector: Vec3): Vec3 {
  let prev: ReadonlyTransform = root;
  const joints = chain.joints;
  for (let i = 0; i < joints.length; i++) {
    const j = joints[i]!;
    composeTransformsTo(fkJoint, prev, j.frameA);
    jointRotationTo(fkRot, values[i]!);
    quatNormalizeTo(fkJoint.rotation, quatMulTo(fkJoint.rotation, fkJoint.rotation, fkRot));
    const link = links[i]!;
    composeTransformsTo(link, fkJoint, invertTransformTo(fkInvB, j.frameB));
    prev = link;
  }
  return transformPointTo(effector, prev, chain.effector);
}

/** jointRotation(value) into out. */
export function jointRotationTo(out: Quat, value: JointValue): Quat {
  if (typeof value === 'number') return quatFromAxisAngleTo(out, X_AXIS, value);
  out[0] = value[0]; out[1] = value[1]; out[2] = value[2]; out[3] = value[3];
  return out;
}

/** World transform of joint i's frame A (on the previous link) given the previous link's world transform. */
export const jointFrameAWorld = (chain: Chain, i: number, prevLink: ReadonlyTransform): Transform =>
  composeTransforms(prevLink, asTransform(chain.joints[i]!.frameA));

// ---------------------------------------------------------------------------------------------- limits

/** Clamp an angle to [min, max]; outside, go to the bound nearer on the circle (no 350° detours). */
export function clampAngle(angle: number, limit: readonly [number, number] | undefined): number {
  if (!limit) return wrapAngle(angle);
  const [lo, hi] = limit;
  if (angle >= lo && angle <= hi) return angle;
  const a = wrapAngle(angle);
  if (a >= lo && a <= hi) return a;
  return Math.abs(wrapAngle(a - lo)) <= Math.abs(wrapAngle(a - hi)) ? lo : hi;
}

/** Swing–twist split about X: q = swing·twist, twist about X, swing about an axis in the YZ plane. */
export function swingTwist(q: ReadonlyQuat): { swing: Quat; twist: Quat; twistAngle: number } {
  const l = Math.hypot(q[0], q[3]);
  // A half turn of pure swing has no defined twist; take none.
  const twist: Quat = l > 1e-9 ? [q[0] / l, 0, 0, q[3] / l] : [0, 0, 0, 1];
  const swing = quatMul(q, quatConj(twist));
  return { swing, twist, twistAngle: wrapAngle(2 * Math.atan2(twist[0], twist[3])) };
}

/**
 * Clamp a ball rotation to its twist range and elliptical swing cone. The swing is scaled radially onto the
 * ellipse (ry/a)² + (rz/b)² = 1 in rotation-vector space — not the exact nearest point of the ellipse, but
 * continuous, on the boundary, and the same direction of swing.
 */
export function clampBall(q: ReadonlyQuat, twistLimit?: readonly [number, number], swingLimit?: readonly [number, number]): Quat {
  return clampBallTo([0, 0, 0, 1], q, twistLimit, swingLimit);
}

const cbQ: Quat = [0, 0, 0, 1], cbTwist: Quat = [0, 0, 0, 1], cbSwing: Quat = [0, 0, 0, 1], cbHinge: Quat = [0, 0, 0, 1];

/** clampBall(q, …) into out (may be q), without allocating; bit for bit the same result. */
export function clampBallTo(out: Quat, q: ReadonlyQuat, twistLimit?: readonly [number, number], swingLimit?: readonly [number, number]): Quat {
  if (!twistLimit && !swingLimit) return quatNormalizeTo(out, q);
  // swingTwist(quatNormalize(q)), inline.
  const n = quatNormalizeTo(cbQ, q);
  const l = Math.hypot(n[0], n[3]);
  if (l > 1e-9) { cbTwist[0] = n[0] / l; cbTwist[1] = 0; cbTwist[2] = 0; cbTwist[3] = n[3] / l; } else { cbTwist[0] = 0; cbTwist[1] = 0; cbTwist[2] = 0; cbTwist[3] = 1; }
  const twistAngle = wrapAngle(2 * Math.atan2(cbTwist[0], cbTwist[3]));
  cbTwist[0] = -cbTwist[0]; cbTwist[1] = -cbTwist[1]; cbTwist[2] = -cbTwist[2]; // quatConj(twist)
  const s = quatMulTo(cbSwing, n, cbTwist);
  const tw = clampAngle(twistAngle, twistLimit);
  if (swingLimit) {
    // swing = (0, sy, sz, sw): rotation vector (0, ry, rz) = angle·axis.
    const sgn = s[3] < 0 ? -1 : 1;
    const sy = s[1] * sgn, sz = s[2] * sgn, sw = s[3] * sgn;
    const sinHalf = Math.hypot(sy, sz);
    if (sinHalf > 1e-12) {
      const angle = 2 * Math.atan2(sinHalf, sw);
      const ry = (sy / sinHalf) * angle, rz = (sz / sinHalf) * angle;
      const a = Math.max(1e-6, swingLimit[0]), b = Math.max(1e-6, swingLimit[1]);
      const e = (ry / a) ** 2 + (rz / b) ** 2;
      if (e > 1) {
        const k = 1 / Math.sqrt(e);
        const na = angle * k;
        const h = Math.sin(na / 2);
        s[0] = 0; s[1] = (sy / sinHalf) * h; s[2] = (sz / sinHalf) * h; s[3] = Math.cos(na / 2);
      }
    }
  }
  return quatNormalizeTo(out, quatMulTo(cbSwing, s, quatFromAxisAngleTo(cbHinge, X_AXIS, tw)));
}

/** A joint value held inside that joint's limits. */
export function clampJointValue(joint: ChainJoint, value: JointValue): JointValue {
  if (joint.type === 'hinge') return clampAngle(typeof value === 'number' ? value : 2 * Math.atan2(value[0], value[3]), joint.limit);
  return clampBall(typeof value === 'number' ? hingeRotation(value) : value, joint.twistLimit, joint.swingLimit);
}

/** Is the value inside the joint's limits (within `tol` rad)? */
export function withinLimits(joint: ChainJoint, value: JointValue, tol = 1e-6): boolean {
  if (joint.type === 'hinge') {
    const a = value as number;
    return !joint.limit || (a >= joint.limit[0] - tol && a <= joint.limit[1] + tol);
  }
  const { swing, twistAngle } = swingTwist(value as Quat);
  if (joint.twistLimit && (twistAngle < joint.twistLimit[0] - tol || twistAngle > joint.twistLimit[1] + tol)) return false;
  if (joint.swingLimit) {
    const sgn = swing[3] < 0 ? -1 : 1;
    const sinHalf = Math.hypot(swing[1], swing[2]);
    if (sinHalf > 1e-12) {
      const angle = 2 * Math.atan2(sinHalf, swing[3] * sgn);
      const ry = (swing[1] * sgn / sinHalf) * angle, rz = (swing[2] * sgn / sinHalf) * angle;
      const a = joint.swingLimit[0] + tol, b = joint.swingLimit[1] + tol;
      if ((ry / a) ** 2 + (rz / b) ** 2 > 1 + 1e-9) return false;
    }
  }
  return true;
}

/** Rotate v about unit axis by angle (Rodrigues). */
export function rotateAbout(axis: ReadonlyVec3, angle: number, v: ReadonlyVec3): Vec3 {
  return quatRotate(quatFromAxisAngle(axis, angle), v);
}
