/**
 * Velocity inheritance (seed 002, Frykholm): when a body switches from animation to physics, it starts
 * with the velocity its last two world transforms imply, so momentum carries over with no frame delay.
 *
 *   v = (p1 − p0) / dt
 *   ω = axis·angle(q1 · q0⁻¹) / dt       (the shortest arc: angle ∈ [0, π], q and −q are one rotation)
 *
 * `p` is the point whose velocity is wanted — the body's centre of mass, since that is what the solver
 * integrates: pass `centroid` (body frame) to have it applied, or positions already at the centre of mass.
 */
import { quatConj, quatMul, quatNormalize, quatRotate, quatToRotationVector, type ReadonlyQuat } from '../math/quat';
import { add, type ReadonlyVec3, type Vec3 } from '../math/vec3';

export interface PoseSample { position: ReadonlyVec3; rotation: ReadonlyQuat }

export function inheritVelocity(previous: PoseSample, current: PoseSample, dt: number, centroid: ReadonlyVec3 = [0, 0, 0]): { linear: Vec3; angular: Vec3 } {
  if (!(dt > 0 && Number.isFinite(dt))) throw new Error(`inheritVelocity: dt must be a positive number of seconds, got ${dt}`);
  const q0 = quatNormalize(previous.rotation), q1 = quatNormalize(current.rotation);
  const c0 = add(previous.position, quatRotate(q0, centroid)), c1 = add(current.position, quatRotate(q1, centroid));
  const r = quatToRotationVector(quatMul(q1, quatConj(q0)));
  return {
    linear: [(c1[0] - c0[0]) / dt, (c1[1] - c0[1]) / dt, (c1[2] - c0[2]) / dt],
    angular: [r[0] / dt, r[1] / dt, r[2] / dt],
  };
}
