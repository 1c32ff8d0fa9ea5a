/**
 * Motor targets from an animation clip (motor target source "animation"): the powered ragdoll follows the
 * clip under its torque limits. At time t the clip gives every bone's world rotation (forward kinematics
 * from the sampled parent-relative rotations); a body's rotation is its bone's · the body offset; then, as
 * the runtime's rest target (shared/runtime/simulation.ts):
 *   ball:  S = (q_A·f_A)⁻¹ · (q_B·f_B)      — frame B relative to frame A (identity at the rest pose)
 *   hinge: θ = 2·atan2(S_x, S_w)            — the signed angle of S about the hinge axis (frame X),
 *          unwrapped to (−π, π].
 * Pure; the runtime calls it each step and hands the result to Simulation.setMotorTargets.
 */
import { quatConj, quatMul, quatNormalize, type Quat } from '../math/quat';
import { orderBones } from '../rig/restPose';
import type { RigDocument } from '../rig/schema';
import { sampleClip } from './clip';
import type { AnimationClip } from './skeletonInput';

export interface AnimationTargetOptions {
  /** Wrap t into the clip's length (default true: clips used as targets usually loop). */
  loop?: boolean;
  /** Only joints whose motor target source is "animation" and whose clip is this clip (default false:
   *  every ball and hinge joint). */
  onlyAnimationJoints?: boolean;
}

export function animationTargets(rig: RigDocument, clip: AnimationClip, time: number, options: AnimationTargetOptions = {}): Record<string, Quat | number> {
  const local = sampleClip(clip, rig.skeleton.bones, time, options.loop ?? true);
  const world = new Map<string, Quat>();
  for (const b of orderBones(rig.skeleton.bones).ordered) {
    const r = local.get(b.name)!.rotation;
    const p = b.parent === null ? undefined : world.get(b.parent);
    world.set(b.name, p ? quatNormalize(quatMul(p, r)) : r);
  }
  const bodyRot = new Map(rig.bodies.map((b) => [b.name, quatMul(world.get(b.bone) ?? [0, 0, 0, 1], quatNormalize(b.offset.rotation))] as const));
  const out: Record<string, Quat | number> = {};
  for (const j of rig.joints) {
    if (j.type !== 'ball' && j.type !== 'hinge') continue;
    if (options.onlyAnimationJoints && (j.motor.target.source !== 'animation' || j.motor.target.clip !== clip.name)) continue;
    const qa = bodyRot.get(j.bodyA), qb = bodyRot.get(j.bodyB);
    if (!qa || !qb) continue;
    let s = quatNormalize(quatMul(quatConj(quatMul(qa, quatNormalize(j.frameA.rotation))), quatMul(qb, quatNormalize(j.frameB.rotation))));
    if (s[3] < 0) s = [-s[0], -s[1], -s[2], -s[3]];
    out[j.name] = j.type === 'ball' ? s : 2 * Math.atan2(s[0], s[3]);
  }
  return out;
}
