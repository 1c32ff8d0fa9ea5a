/**
 * shared/skeleton's reading of a creature file → the authoring input: the bones in the rig format's
 * shape (parents by name, rest TRS rounded for stable file text), the skinned primitives (bind-pose
 * vertices with their joint weights) and the clips with channels naming their bones. Bones come in the order of the file's first
 * skin (jointOrder), the order the editor lists them and rig files store them.
 */
import { jointOrder, mapChannelValues, rigidBones, type AnimationClip as CreatureClip, type Creature, type CreatureSkeleton, type RigidBone } from '../skeleton';
import type { TRS } from '../math';
import type { Bone } from '../rig/schema';
import { round3v, round4q } from './frames';
import type { AnimationClip, AuthoringSkeleton, SkinData } from './skeletonInput';

/** One bone in the rig format: rest rounded to 1e-9 (rotation normalised, w ≥ 0) so the same file
 *  always gives the same text, whether the editor or a generator script writes it. */
export function rigBone(name: string, parent: string | null, rest: TRS): Bone {
  return { name, parent, rest: { translation: round3v(rest.translation), rotation: round4q(rest.rotation), scale: round3v(rest.scale) } };
}

/** The skeleton as rig-format bones: each bone's rest is its rigid rest relative to its parent bone —
 *  the file's rest world transform through every ancestor (bone or not), scale removed
 *  (shared/skeleton/rigid.ts), in the file's units (creatureScale.ts scaleSkeleton brings them to metres). */
export function rigBonesFromSkeleton(creature: CreatureSkeleton): Bone[] {
  const bones = creature.skeleton.bones;
  const rigid = rigidBones(bones);
  return jointOrder(creature).map((i) => {
    const b = bones[i]!, r = rigid[i]!.local;
    return rigBone(b.name, b.parent >= 0 ? bones[b.parent]!.name : null, { translation: r.translation, rotation: r.rotation, scale: [1, 1, 1] });
  });
}

/**
 * The authoring input of a creature file: the rig bones (rigid rest), per skinned primitive its vertices
 * at the rest pose with their influences, each rigid mesh under a bone as one more "skin" whose vertices
 * all belong to that bone, and the clips in rigid terms — all in the file's units (scaleSkeleton rescales).
 */
export function authoringSkeletonFromCreature(creature: Creature): AuthoringSkeleton {
  const boneNames = creature.skeleton.bones.map((b) => b.name);
  const skins: SkinData[] = creature.skinnedPrimitives.map((p) => ({
    positions: p.positions, joints: p.joints, weights: p.weights,
    jointNames: creature.skins[p.skin]!.joints.map((bone) => boneNames[bone]!),
  }));
  for (const part of creature.rigidParts ?? []) {
    const n = part.positions.length / 3;
    const joints = new Array<number>(4 * n).fill(0), weights = new Array<number>(4 * n).fill(0);
    for (let v = 0; v < n; v++) weights[4 * v] = 1;
    skins.push({ positions: part.positions, joints, weights, jointNames: [boneNames[part.bone]!], rigid: true });
  }
  const rigid = rigidBones(creature.skeleton.bones);
  return { bones: rigBonesFromSkeleton(creature), skins, clips: creature.clips.map((c) => namedClip(creature, c, rigid)) };
}

/** A clip whose channels name their bone (what the editor's preview and the generator take), its keys in
 *  the rigid terms of rigBonesFromSkeleton (scale keys dropped). */
export function namedClip(creature: CreatureSkeleton, clip: CreatureClip, rigid: readonly RigidBone[] = rigidBones(creature.skeleton.bones)): AnimationClip {
  return {
    name: clip.name,
    channels: clip.channels.filter((ch) => ch.path !== 'scale').map((ch) => ({
      bone: creature.skeleton.bones[ch.bone]!.name, path: ch.path, interpolation: ch.interpolation, times: ch.times,
      values: mapChannelValues(rigid[ch.bone]!.channel, ch.path as 'translation' | 'rotation', ch.interpolation, ch.values),
    })),
  };
}
