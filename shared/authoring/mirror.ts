/**
 * Mirror one side onto the other (…_l ↔ …_r) across the X = 0 plane.
 *
 * The reflection M = diag(−1, 1, 1) maps a rigid transform (p, R) to (M·p, M·R·M): positions x → −x, and
 * the rotation conjugated by M — a proper rotation (det +1), whose quaternion is (x, −y, −z, w). This map
 * respects composition, so bodies, shapes and joint frames are reflected in world and re-expressed in the
 * mirror bone's frame; every shape the format has is symmetric about its own axes, so M·R·M is the same
 * solid as the reflected M·R.
 *
 * Rotation sense: a rotation by θ about axis a, reflected, is a rotation by θ about −M·a (an axis is a
 * pseudo-vector). Mirrored frames (frames: 'mirror', the default) carry X to −M·X, so every angle keeps its
 * sign about the mirrored axis and limits copy over unchanged. When the target joint's own frames are
 * kept (frames: 'keep'), its frame X may point along +M·X instead — the reflection then reverses the
 * rotation sense, and hinge limits and ball twist limits are sign-flipped: [min, max] → [−max, −min].
 * Offsets along frame X and a screw's pitch: see mirrorOffsets.
 */
import { quatMul, quatNormalize, quatRotate, type Quat } from '../math/quat';
import { composeTransforms, invertTransform, type Transform } from '../math/transform';
import { dot, type Vec3 } from '../math/vec3';
import { bodyRestWorld, boneRestWorld } from '../rig/restPose';
import type { RigBody, RigDocument, RigJoint } from '../rig/schema';
import { fail, finishEdit, type EditResult } from './editResult';
import { cloneJson, round3v, round4q } from './frames';
import { mirrorName, sideOf } from './names';

export const mirrorTransform = (t: Transform): Transform => ({
  position: [-t.position[0], t.position[1], t.position[2]],
  rotation: [t.rotation[0], -t.rotation[1], -t.rotation[2], t.rotation[3]],
});

const flip = (r: readonly [number, number] | null): [number, number] | null => (r ? [-r[1] + 0, -r[0] + 0] : null);

/** A motor driving an offset along frame X: its target velocity (m/s) changes sign with the offset. */
const negateVelocity = <M extends { target: { velocity?: number } }>(m: M): M =>
  (m.target.velocity === undefined ? m : { ...m, target: { ...m.target, velocity: -m.target.velocity + 0 } });

/**
 * Offsets along frame X under the reflection: with mirrored frames (X → −M·X) an offset d = Δp·X becomes
 * (M·Δp)·(−M·X) = −d, so prismatic and cylindrical slide limits flip and slide velocity targets change sign;
 * where a kept frame X points along +M·X (`reversed`) the offset keeps its sign. A screw's pitch flips either
 * way — a reflection turns a right-hand thread into a left-hand one (angle kept and offset negated, or angle
 * negated and offset kept). Offsets along frame Y and Z (the planar joint's) keep their sign with mirrored
 * frames (Y → M·Y).
 */
function mirrorOffsets(joint: RigJoint, reversed: boolean): RigJoint {
  if (joint.type === 'screw') return { ...joint, pitch: -joint.pitch };
  if (reversed) return joint;
  if (joint.type === 'prismatic') return { ...joint, limit: flip(joint.limit), motor: negateVelocity(joint.motor) };
  if (joint.type === 'cylindrical') return { ...joint, slideLimit: flip(joint.slideLimit), slideMotor: negateVelocity(joint.slideMotor) };
  return joint;
}

export interface MirrorOptions { frames?: 'mirror' | 'keep' }

/** Copies every body and joint of side `from` onto its mirror name, replacing what was there. */
export function mirrorSide(rig: RigDocument, from: 'left' | 'right', options: MirrorOptions = {}): EditResult {
  const boneWorld = boneRestWorld(rig.skeleton.bones);
  const bodyWorld = bodyRestWorld(rig.bodies, boneWorld);
  const bodyNames = new Set(rig.bodies.map((b) => b.name));
  const newBodies = new Map<string, RigBody>();
  for (const b of rig.bodies) {
    if (sideOf(b.name) !== from && sideOf(b.bone) !== from) continue;
    const name = mirrorName(b.name) ?? b.name, bone = mirrorName(b.bone) ?? b.bone;
    const target = boneWorld.get(bone);
    if (!target) return fail('bone', `body "${b.name}" is on bone "${b.bone}", whose mirror bone "${bone}" is not in the skeleton`);
    const W = mirrorTransform(bodyWorld.get(b.name)!);
    const offset = composeTransforms(invertTransform(target), W);
    const { computed: _c, ...rest } = b;
    newBodies.set(name, {
      ...cloneJson(rest), name, bone,
      offset: { position: round3v(offset.position), rotation: round4q(offset.rotation) },
      shapes: b.shapes.map((s) => {
        const m = mirrorTransform({ position: s.position as Vec3, rotation: s.rotation as Quat });
        return { ...cloneJson(s), position: round3v(m.position), rotation: round4q(m.rotation) };
      }),
    });
  }
  if (newBodies.size === 0) return fail('from', `no body is on the ${from} side (names ending _l/_r, .L/.R or with Left/Right)`);
  // Keep the body order of the file where a mirror body existed already (stable diffs).
  const ordered = rig.bodies.map((b) => newBodies.get(b.name) ?? b).concat([...newBodies.values()].filter((b) => !bodyNames.has(b.name)));
  const mirroredWorld = bodyRestWorld(ordered, boneWorld);

  const oldJoints = new Map(rig.joints.map((j) => [j.name, j]));
  const newJoints = new Map<string, RigJoint>();
  for (const j of rig.joints) {
    if (sideOf(j.bodyB) !== from) continue;
    const name = mirrorName(j.name) ?? j.name;
    const bodyA = newBodies.has(mirrorName(j.bodyA) ?? '') ? mirrorName(j.bodyA)! : j.bodyA;
    const bodyB = mirrorName(j.bodyB)!;
    const frameOf = (body: string, srcBody: string, f: RigJoint['frameA']) => {
      const W = mirrorTransform(composeTransforms(bodyWorld.get(srcBody)!, { position: f.position as Vec3, rotation: quatNormalize(f.rotation as Quat) }));
      const t = composeTransforms(invertTransform(mirroredWorld.get(body)!), W);
      return { position: round3v(t.position), rotation: round4q(t.rotation) };
    };
    let joint: RigJoint = { ...cloneJson(j), name, bodyA, bodyB, frameA: frameOf(bodyA, j.bodyA, j.frameA), frameB: frameOf(bodyB, j.bodyB, j.frameB) };
    const existing = oldJoints.get(name);
    let reversed = false;
    if (options.frames === 'keep' && existing && existing.type === joint.type && existing.bodyB === bodyB) {
      // Keep the target's frames; compare its X axis (world) with the mirrored one to find the sense.
      const xOf = (jt: RigJoint) => quatRotate(quatMul(mirroredWorld.get(jt.bodyB)!.rotation, quatNormalize(jt.frameB.rotation as Quat)), [1, 0, 0]);
      reversed = dot(xOf(existing), xOf(joint)) < 0;
      joint = { ...joint, frameA: existing.frameA, frameB: existing.frameB, bodyA: existing.bodyA };
      if (reversed && (joint.type === 'hinge' || joint.type === 'screw' || joint.type === 'cylindrical' || joint.type === 'planar')) joint = { ...joint, limit: flip(joint.limit) };
      if (reversed && joint.type === 'ball') joint = { ...joint, twistLimit: flip(joint.twistLimit) };
    }
    newJoints.set(name, mirrorOffsets(joint, reversed));
  }
  const joints = rig.joints.map((j) => newJoints.get(j.name) ?? j).concat([...newJoints.values()].filter((j) => !oldJoints.has(j.name)));
  return finishEdit(rig, { ...rig, bodies: ordered, joints });
}
