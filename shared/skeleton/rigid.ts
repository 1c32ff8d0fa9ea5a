/**
 * Rigid bone frames: what a ragdoll body can follow. A glTF bone's rest is its node's TRS under its parent
 * node, and between two bones (or above the root bone) there may be non-bone nodes — an "Armature" at
 * scale 0.01, a Z_UP turn, occasionally a non-uniform scale. A rigid body has no scale and no shear, so
 * the rig keeps, per bone, its rest *world* position and rotation (every ancestor folded in, scale left
 * out) expressed relative to its parent bone's rigid frame.
 *
 * With P the bone's parent node (a bone or not), B its parent bone, rigid(X) = (position, rotation) of X's
 * rest world matrix and σ = P's world scale (uniform; the mean of the axes otherwise):
 *   O = rigid(B)⁻¹ · rigid(P)            (fixed at rest: everything between the two bones)
 *   rest translation = O.t + O.R · (σ · L.t),   rest rotation = O.R · L.R      (L = the node's local TRS)
 * An animation key on the node maps the same way, exact per key; linear interpolation and slerp commute
 * with it, so keys keep their times. (The same rule fbxCreature.ts applies to FBX scenes.)
 */
import { mat4FromTRS, mat4Invert, mat4Mul, mat4ToTRS, quatConj, quatMul, quatNormalize, quatRotate, sub, type Quat, type Vec3 } from '../math';
import type { Bone as SkeletonBone } from './types';

/** How a node's local translation / rotation (or an animation key of it) becomes the rigid rest. */
export interface RigidChannelMap {
  offsetT: Vec3;
  offsetR: Quat;
  /** World scale of the parent node (uniform part). */
  sigma: number;
}

export interface RigidBone {
  /** Rest world position (file units) and rotation, scale removed. */
  world: { position: Vec3; rotation: Quat };
  /** Rest relative to the parent bone's rigid frame (file units); a root bone: relative to the scene. */
  local: { translation: Vec3; rotation: Quat };
  channel: RigidChannelMap;
}

const uniform = (s: readonly number[]): number => (Math.abs(s[0]!) + Math.abs(s[1]!) + Math.abs(s[2]!)) / 3;

/** The rigid frames of every bone (same order as `bones`). */
export function rigidBones(bones: readonly SkeletonBone[]): RigidBone[] {
  const out: RigidBone[] = [];
  for (const b of bones) {
    const worldTRS = b.rest.world;
    const world = { position: [...worldTRS.translation] as Vec3, rotation: quatNormalize(worldTRS.rotation) };
    // The parent node's rest world matrix: world · local⁻¹.
    const localInv = mat4Invert(mat4FromTRS(b.rest.local));
    const parentNode = localInv ? mat4ToTRS(mat4Mul(mat4FromTRS(worldTRS), localInv)) : { translation: [0, 0, 0] as Vec3, rotation: [0, 0, 0, 1] as Quat, scale: [1, 1, 1] as Vec3 };
    const parentBone = b.parent >= 0 ? out[b.parent]!.world : { position: [0, 0, 0] as Vec3, rotation: [0, 0, 0, 1] as Quat };
    const inv = quatConj(parentBone.rotation);
    const channel: RigidChannelMap = {
      offsetT: quatRotate(inv, sub(parentNode.translation, parentBone.position)),
      offsetR: quatNormalize(quatMul(inv, parentNode.rotation)),
      sigma: uniform(parentNode.scale),
    };
    // The rest itself straight from the world frames (exact even under a non-uniform scale, where the
    // channel map's uniform σ is an approximation for animation keys).
    let rotation = quatNormalize(quatMul(inv, world.rotation));
    if (rotation[3] < 0) rotation = [-rotation[0], -rotation[1], -rotation[2], -rotation[3]];
    out.push({ world, local: { translation: quatRotate(inv, sub(world.position, parentBone.position)), rotation }, channel });
  }
  return out;
}

/**
 * An animation channel's values in rigid terms. Translation keys map affinely (CUBICSPLINE tangents
 * linearly, without the offset); rotation keys (and tangents) are premultiplied by O.R, without changing
 * the sign of a key (slerp between neighbours picks the short way as before). Scale keys are dropped by
 * the caller (rigid frames).
 */
export function mapChannelValues(c: RigidChannelMap, path: 'translation' | 'rotation', interpolation: string, values: ArrayLike<number>): Float64Array {
  const stride = path === 'translation' ? 3 : 4;
  const out = new Float64Array(values.length);
  const cubic = interpolation === 'CUBICSPLINE';
  for (let i = 0; i * stride < values.length; i++) {
    const v = Array.from({ length: stride }, (_, k) => values[i * stride + k]!);
    const isTangent = cubic && i % 3 !== 1;
    let m: number[];
    if (path === 'translation') {
      const r = quatRotate(c.offsetR, [c.sigma * v[0]!, c.sigma * v[1]!, c.sigma * v[2]!]);
      m = isTangent ? r : [c.offsetT[0] + r[0], c.offsetT[1] + r[1], c.offsetT[2] + r[2]];
    } else {
      m = quatMul(c.offsetR, [v[0]!, v[1]!, v[2]!, v[3]!]);
    }
    for (let k = 0; k < stride; k++) out[i * stride + k] = m[k]!;
  }
  return out;
}
