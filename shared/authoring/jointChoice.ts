/**
 * Which joint connects a parent body to a child body, and about which axis a hinge turns. The rule, in
 * order (docs/authoring.md):
 *
 *  1. Branch or root → ball. The child hangs off a bone with two or more children (spine → arms and head,
 *     pelvis → legs and spine) or off the root of the tree (a mine's shell → its arm): shoulders, hips,
 *     neck, spine — joints that turn about every axis.
 *  2. Bent at rest → hinge. The child's direction differs from the parent's by more than 10°: the chain
 *     bends in one plane (an elbow modelled bent, an ankle). Axis = parent direction × child direction,
 *     so the modelled bend is a positive angle and "flex further" is +.
 *  3. Animated about one axis → hinge. Over every clip the child's rotation relative to the parent stays
 *     (≥ 95 % of its squared angle) about one axis, and it moves (RMS > 0.1 rad): that axis, signed so the
 *     clips' largest motion is +.
 *  4. Named like an elbow or knee (elbow, forearm, lower arm, knee, shin, calf, lower leg) → hinge about
 *     the child bone's local X (the glTF/Blender convention for a limb's bend axis); flex sign unknown.
 *  5. Otherwise → ball.
 *  Left/right pairs (…_l/…_r, .L/.R, Left…/Right…) agree: a side decided by evidence (2, 3) gives its
 *  mirror image to a side decided only by a name or the default (4, 5).
 */
import { quatConj, quatMul, quatNormalize, quatRotate, quatToRotationVector, type Quat } from '../math/quat';
import { cross, dot, length, normalize, scale, type Vec3 } from '../math/vec3';
import { orderBones } from '../rig/restPose';
import type { Bone } from '../rig/schema';
import type { BoneGeometry } from './boneGeometry';
import { clipDuration, sampleClip } from './clip';
import { mirrorName } from './names';
import type { AnimationClip } from './skeletonInput';

export type JointReason = 'branch-or-root' | 'bent-at-rest' | 'animated-one-axis' | 'name' | 'default';

export interface JointChoice {
  type: 'ball' | 'hinge';
  /** Hinge axis (world, unit) at rest; for a ball joint null. */
  axis: Vec3 | null;
  /** True when + along `axis` is known to flex the limb further (rules 2 and 3). */
  flexKnown: boolean;
  /** Rest bend (rad) between the parent's and the child's directions (rule 2), else 0. */
  restBend: number;
  reason: JointReason;
}

const BEND_THRESHOLD = (10 * Math.PI) / 180;
const ONE_AXIS_FRACTION = 0.95;
const MIN_RMS_ANGLE = 0.1;
const SAMPLES_PER_SECOND = 30;
const HINGE_NAME = /(elbow|forearm|lower_?arm|knee|shin|calf|lower_?leg)/i;

/** The child-body bone → its joint choice, for each (parent bone, child bone) pair. */
export function chooseJoints(
  pairs: readonly { parent: string; child: string }[],
  geometry: ReadonlyMap<string, BoneGeometry>,
  bones: readonly Bone[],
  clips: readonly AnimationClip[],
): Map<string, JointChoice> {
  const motion = clipMotion(pairs, bones, clips);
  const out = new Map<string, JointChoice>();
  for (const { parent, child } of pairs) out.set(child, choose(geometry.get(parent)!, geometry.get(child)!, motion.get(child) ?? []));
  // Symmetry: evidence on one side wins over a guess on the other.
  const evidence = (c: JointChoice) => c.reason === 'bent-at-rest' || c.reason === 'animated-one-axis';
  for (const { child } of pairs) {
    const other = mirrorName(child);
    const mine = out.get(child)!, theirs = other ? out.get(other) : undefined;
    if (!theirs || !evidence(theirs) || evidence(mine) || mine.reason === 'branch-or-root') continue;
    out.set(child, { ...theirs, axis: theirs.axis ? mirrorAxis(theirs.axis) : null });
  }
  return out;
}

/** A rotation axis (a pseudo-vector) reflected across the X = 0 plane: −M·a with M = diag(−1, 1, 1). */
export const mirrorAxis = (a: Vec3): Vec3 => [a[0], -a[1], -a[2]];

function choose(parent: BoneGeometry, child: BoneGeometry, motion: readonly Vec3[]): JointChoice {
  const ball = (reason: JointReason): JointChoice => ({ type: 'ball', axis: null, flexKnown: false, restBend: 0, reason });
  if (parent.children.length >= 2 || parent.parent === null) return ball('branch-or-root');
  const bend = Math.acos(Math.max(-1, Math.min(1, dot(parent.direction, child.direction))));
  const c = cross(parent.direction, child.direction);
  if (bend > BEND_THRESHOLD && length(c) > 1e-6) {
    return { type: 'hinge', axis: normalize(c), flexKnown: true, restBend: bend, reason: 'bent-at-rest' };
  }
  const axis = dominantAxis(motion);
  if (axis) return { type: 'hinge', axis, flexKnown: true, restBend: 0, reason: 'animated-one-axis' };
  if (HINGE_NAME.test(child.name)) {
    return { type: 'hinge', axis: quatRotate(child.world.rotation, [1, 0, 0]), flexKnown: false, restBend: 0, reason: 'name' };
  }
  return ball('default');
}

/**
 * The axis holding ≥ 95 % of Σ r·rᵀ (r the rotation vectors), by power iteration on that 3×3 scatter
 * matrix; null when the motion is too small or spread over several axes.
 */
function dominantAxis(rs: readonly Vec3[]): Vec3 | null {
  if (rs.length === 0) return null;
  const S = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (const r of rs) for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) S[3 * i + j]! += r[i]! * r[j]!;
  const trace = S[0]! + S[4]! + S[8]!;
  if (Math.sqrt(trace / rs.length) < MIN_RMS_ANGLE) return null;
  let e: Vec3 = [1, 1, 1];
  for (let k = 0; k < 100; k++) {
    e = normalize([S[0]! * e[0] + S[1]! * e[1] + S[2]! * e[2], S[3]! * e[0] + S[4]! * e[1] + S[5]! * e[2], S[6]! * e[0] + S[7]! * e[1] + S[8]! * e[2]]);
  }
  const Se: Vec3 = [S[0]! * e[0] + S[1]! * e[1] + S[2]! * e[2], S[3]! * e[0] + S[4]! * e[1] + S[5]! * e[2], S[6]! * e[0] + S[7]! * e[1] + S[8]! * e[2]];
  if (dot(e, Se) / trace < ONE_AXIS_FRACTION) return null;
  let biggest = 0;
  for (const r of rs) { const p = dot(r, e); if (Math.abs(p) > Math.abs(biggest)) biggest = p; }
  return biggest < 0 ? scale(e, -1) : e;
}

/**
 * Per child bone: rotation vectors (world axes at rest) of its rotation relative to the parent bone,
 * measured from the rest relation, sampled through every clip.
 *   D(t) = (Rp(t)⁻¹·Rc(t)) · (Rp0⁻¹·Rc0)⁻¹ in the parent's frame;  r = Rp0 · log(D).
 */
function clipMotion(pairs: readonly { parent: string; child: string }[], bones: readonly Bone[], clips: readonly AnimationClip[]): Map<string, Vec3[]> {
  const out = new Map<string, Vec3[]>();
  if (clips.length === 0) return out;
  const ordered = orderBones(bones).ordered;
  const worldRotations = (local: Map<string, { rotation: Quat }>) => {
    const w = new Map<string, Quat>();
    for (const b of ordered) {
      const r = local.get(b.name)!.rotation;
      const p = b.parent === null ? undefined : w.get(b.parent);
      w.set(b.name, p ? quatNormalize(quatMul(p, r)) : r);
    }
    return w;
  };
  const rest = worldRotations(new Map(bones.map((b) => [b.name, { rotation: quatNormalize(b.rest.rotation) }])));
  for (const clip of clips) {
    const duration = clipDuration(clip);
    const n = Math.max(2, Math.ceil(duration * SAMPLES_PER_SECOND) + 1);
    for (let k = 0; k < n; k++) {
      const w = worldRotations(sampleClip(clip, bones, (duration * k) / (n - 1)));
      for (const { parent, child } of pairs) {
        const rel = quatMul(quatConj(w.get(parent)!), w.get(child)!);
        const rel0 = quatMul(quatConj(rest.get(parent)!), rest.get(child)!);
        const r = quatRotate(rest.get(parent)!, quatToRotationVector(quatMul(rel, quatConj(rel0))));
        let list = out.get(child);
        if (!list) { list = []; out.set(child, list); }
        list.push(r);
      }
    }
  }
  return out;
}
