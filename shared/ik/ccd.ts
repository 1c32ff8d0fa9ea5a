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
import { crossTo, dot, length, normalizeTo, rejectTo, subTo, type ReadonlyVec3, type Vec3 } from '../math/vec3';
import { quatConjTo, quatFromToTo, quatMulTo, quatNormalizeTo, quatRotateTo, type Quat } from '../math/quat';
import { composeTransformsTo, newTransform, type ReadonlyTransform, type Transform } from '../math/transform';
import { clampBallTo, clampJointValue, forwardKinematicsInto, restValues, type Chain, type JointValue } from './chain';

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

/** Scratch for sweep (not re-entered; solveTwoBone keeps its own). */
const S = {
  links: [] as Transform[], eff: [0, 0, 0] as Vec3, frameA: newTransform(),
  e: [0, 0, 0] as Vec3, t: [0, 0, 0] as Vec3, a: [0, 0, 0] as Vec3, ePerp: [0, 0, 0] as Vec3, tPerp: [0, 0, 0] as Vec3, c: [0, 0, 0] as Vec3,
  ne: [0, 0, 0] as Vec3, nt: [0, 0, 0] as Vec3, dR: [0, 0, 0, 1] as Quat, local: [0, 0, 0, 1] as Quat, q: [0, 0, 0, 1] as Quat,
};

function sweep(chain: Chain, root: ReadonlyTransform, target: ReadonlyVec3, start: readonly JointValue[],
  iterations: number, tolerance: number): CcdResult {
  // The values are this sweep's own (fresh from clampJointValue) and are updated in place; the forward
  // kinematics and every intermediate go to scratch. Same arithmetic as the allocating version, bit for bit.
  const values: JointValue[] = start.map((v, i) => clampJointValue(chain.joints[i]!, v));
  const links = S.links;
  while (links.length < chain.joints.length) links.push(newTransform());
  const effector = forwardKinematicsInto(chain, root, values, links, S.eff);
  let error = length(subTo(S.e, effector, target));
  let it = 0;
  for (; it < iterations && error > tolerance; it++) {
    for (let i = chain.joints.length - 1; i >= 0; i--) {
      const joint = chain.joints[i]!;
      const prev = i === 0 ? root : links[i - 1]!;
      const frameA = composeTransformsTo(S.frameA, prev, joint.frameA);
      const p = frameA.position;
      const e = subTo(S.e, effector, p), t = subTo(S.t, target, p);
      if (joint.type === 'hinge') {
        const a = quatRotateTo(S.a, frameA.rotation, X);
        const ePerp = rejectTo(S.ePerp, e, a), tPerp = rejectTo(S.tPerp, t, a);
        if (length(ePerp) < 1e-9 || length(tPerp) < 1e-9) continue;
        const delta = Math.atan2(dot(a, crossTo(S.c, ePerp, tPerp)), dot(ePerp, tPerp));
        values[i] = clampJointValue(joint, (values[i] as number) + delta);
      } else {
        if (length(e) < 1e-9 || length(t) < 1e-9) continue;
        const dR = quatFromToTo(S.dR, normalizeTo(S.ne, e), normalizeTo(S.nt, t));
        const local = quatMulTo(S.local, quatMulTo(S.local, quatConjTo(S.local, frameA.rotation), dR), frameA.rotation);
        const v = values[i] as Quat;
        clampBallTo(v, quatNormalizeTo(S.q, quatMulTo(S.q, local, v)), joint.twistLimit, joint.swingLimit);
      }
      forwardKinematicsInto(chain, root, values, links, effector);
    }
    error = length(subTo(S.e, effector, target));
  }
  return { values, effector: [effector[0], effector[1], effector[2]], error, iterations: it };
}
