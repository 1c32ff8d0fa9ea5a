/**
 * Cyclic coordinate descent for chains longer than two bones (tails, multi-jointed legs), with every joint
 * held inside its limits after each update — so the answer is always a pose the physics joints accept.
 *
 * Why CCD rather than FABRIK: FABRIK moves joint POSITIONS and needs a separate, lossy step to turn them
 * back into rotations and to impose hinge axes and twist limits; CCD works on the joint rotations the
 * motors take (S for a ball, θ for a hinge), so hinge axes and limits are enforced exactly at every step.
 *
 * Per joint, from the tip to the root: with p the joint position, e the effector and t the target,
 *   hinge (axis a):  Δθ = atan2(a·(e⊥ × t⊥), e⊥·t⊥), e⊥, t⊥ = (e − p), (t − p) projected ⊥ a
 *   ball:            ΔR = shortest rotation (e − p) → (t − p), applied in frame A: S ← A⁻¹·ΔR·A·S
 * then clamp. Unreachable targets end with the chain stretched toward them; never NaN.
 */
import { cross, dot, length, normalize, sub, scale, type ReadonlyVec3, type Vec3 } from '../math/vec3';
import { quatConj, quatFromTo, quatMul, quatNormalize, quatRotate, type Quat } from '../math/quat';
import { composeTransforms, type ReadonlyTransform } from '../math/transform';
import { clampJointValue, forwardKinematics, restValues, type Chain, type JointValue } from './chain';

export interface CcdOptions {
  /** Sweeps over the chain (tip → root). */
  iterations?: number;
  /** Stop when the effector is this close (m). */
  tolerance?: number;
}

export interface CcdResult { values: JointValue[]; effector: Vec3; error: number; iterations: number }

const X: ReadonlyVec3 = [1, 0, 0];

export function solveCcd(chain: Chain, root: ReadonlyTransform, target: ReadonlyVec3, initial?: readonly JointValue[],
  options: CcdOptions = {}): CcdResult {
  const tolerance = options.tolerance ?? 1e-4;
  const start = initial && initial.length === chain.joints.length ? [...initial] : restValues(chain);
  let best = sweep(chain, root, target, start, options.iterations ?? 32, tolerance);
  // CCD is local and limits make it stall in folds. Restart from the middle of every hinge range (a pose
  // "between" the limits) and keep the better answer — deterministic, and cheap next to a physics step.
  if (best.error > tolerance && chain.joints.some((j) => j.type === 'hinge' && j.limit)) {
    const mid = chain.joints.map((j, i): JointValue =>
      j.type === 'hinge' ? (j.limit ? (j.limit[0] + j.limit[1]) / 2 : 0) : (start[i] as Quat));
    const other = sweep(chain, root, target, mid, options.iterations ?? 32, tolerance);
    if (other.error < best.error) best = other;
  }
  return best;
}

function sweep(chain: Chain, root: ReadonlyTransform, target: ReadonlyVec3, start: readonly JointValue[],
  iterations: number, tolerance: number): CcdResult {
  const values: JointValue[] = start.map((v, i) => clampJointValue(chain.joints[i]!, v));
  let fk = forwardKinematics(chain, root, values);
  let error = length(sub(fk.effector, target));
  let it = 0;
  for (; it < iterations && error > tolerance; it++) {
    for (let i = chain.joints.length - 1; i >= 0; i--) {
      const joint = chain.joints[i]!;
      const prev = i === 0 ? root : fk.links[i - 1]!;
      const frameA = composeTransforms(prev, joint.frameA);
      const p = frameA.position;
      const e = sub(fk.effector, p), t = sub(target, p);
      if (joint.type === 'hinge') {
        const a = quatRotate(frameA.rotation, X);
        const ePerp = sub(e, scale(a, dot(e, a))), tPerp = sub(t, scale(a, dot(t, a)));
        if (length(ePerp) < 1e-9 || length(tPerp) < 1e-9) continue;
        const delta = Math.atan2(dot(a, cross(ePerp, tPerp)), dot(ePerp, tPerp));
        values[i] = clampJointValue(joint, (values[i] as number) + delta);
      } else {
        if (length(e) < 1e-9 || length(t) < 1e-9) continue;
        const dR = quatFromTo(normalize(e), normalize(t));
        const local = quatMul(quatMul(quatConj(frameA.rotation), dR), frameA.rotation);
        values[i] = clampJointValue(joint, quatNormalize(quatMul(local, values[i] as Quat)));
      }
      fk = forwardKinematics(chain, root, values);
    }
    error = length(sub(fk.effector, target));
  }
  return { values, effector: fk.effector, error, iterations: it };
}
