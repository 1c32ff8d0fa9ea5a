/**
 * A one-DOF drive's target clamped into its joint's limit: the hinge's angle and the prismatic joint's offset
 * (joints/hingeJoint.ts, joints/prismaticJoint.ts), the screw / cylindrical / planar joints' angle and slides
 * (joints/coupledJoint.ts) and the articulated solver's one-DOF drives (articulated/drives.ts), so both
 * solvers clamp them the same way. The ball's counterpart is swingTwist.ts clampSwingTwistTarget.
 */

/**
 * The drive's error C = current − target′, where target′ is its target clamped into [lo, hi], as Jolt's
 * HingeConstraint::SetTargetAngle and SliderConstraint::SetTargetPosition clamp theirs
 * (`mHasLimits? Clamp(inAngle, mLimitsMin, mLimitsMax) : inAngle`). `C` is the unclamped error, already
 * taken the short way for an angle (C = −wrap(θ̂ − θ), so the target current − C lies within π of the
 * current, unwrapped as the angle is): a target the stop excludes is replaced by the end the drive was
 * heading for, never the far one, so the drive never reverses. The range is widened to take in the current
 * value when that lies past a stop (a rig started outside its limit): the drive then holds where the stop has
 * it instead of striking toward the far end at r·C/h, and the stop alone brings the joint back.
 * A target inside the range returns C itself, bit for bit. No limit: pass lo = −∞, hi = +∞ (or do not call).
 * Why (docs/physics.md "What prevents explosions"): a drive whose target lies past its stop presses against
 * it at full torque every substep, a standing impulse the warm start carries and the stop answers.
 */
export function clampedDriveError(current: number, C: number, lo: number, hi: number): number {
  const target = current - C;
  const a = lo < current ? lo : current, b = hi > current ? hi : current;
  return target < a ? current - a : target > b ? current - b : C;
}
