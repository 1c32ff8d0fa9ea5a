/**
 * shared/skeleton's reading of a creature file → the authoring input: the bones in the rig format's
 * shape (parents by name, rest TRS rounded for stable file text), the skinned primitives (bind-pose
 * vertices with their joint weights) and the clips with channels naming their bones. Bones come in the order of the file's first
 * skin (jointOrder), the order the editor lists them and rig files store them.
 */
import { jointOrder, type AnimationClip as CreatureClip, type Creature, type CreatureSkeleton } from '../skeleton';
import type { TRS } from '../math';
import type { Bone } from '../rig/schema';
import { round3v, round4q } from './frames';
import type { AnimationClip, AuthoringSkeleton, SkinData } from './skeletonInput';

/** One bone in the rig format: rest rounded to 1e-9 (rotation normalised, w ≥ 0) so the same file
 *  always gives the same text, whether the editor or a generator script writes it. */
export function rigBone(name: string, parent: string | null, rest: TRS): Bone {
  return { name, parent, rest: { translation: round3v(rest.translation), rotation: round4q(rest.rotation), scale: round3v(rest.scale) } };
}

/** The skeleton as rig-format bones: each bone's rest is its node's own transform (parent-relative). */
export function rigBonesFromSkeleton(creature: CreatureSkeleton): Bone[] {
  const bones = creature.skeleton.bones;
  return jointOrder(creature).map((i) => {
    const b = bones[i]!;
    return rigBone(b.name, b.parent >= 0 ? bones[b.parent]!.name : null, b.rest.local);
  });
}

export function authoringSkeletonFromCreature(creature: Creature): AuthoringSkeleton {
  const boneNames = creature.skeleton.bones.map((b) => b.name);
  const skins: SkinData[] = creature.skinnedPrimitives.map((p) => ({
    positions: p.positions, joints: p.joints, weights: p.weights,
    jointNames: creature.skins[p.skin]!.joints.map((bone) => boneNames[bone]!),
  }));
  return { bones: rigBonesFromSkeleton(creature), skins, clips: creature.clips.map((c) => namedClip(creature, c)) };
}

/** A clip whose channels name their bone (what the editor's preview and the generator take). */
export function namedClip(creature: CreatureSkeleton, clip: CreatureClip): AnimationClip {
  return {
    name: clip.name,
    channels: clip.channels.map((ch) => ({
      bone: creature.skeleton.bones[ch.bone]!.name, path: ch.path, interpolation: ch.interpolation, times: ch.times, values: ch.values,
    })),
  };
}
