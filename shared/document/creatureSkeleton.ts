/**
 * The skeleton of a glTF 2.0 creature as the editor keeps it: shared/skeleton's reading of the file (no
 * three.js), each bone with its parent bone, rest TRS and glTF node index, in the order of the file's
 * first skin. The renderer draws the mesh with three's loader and matches its bone objects to these by
 * node index; the document stores the same bones in the rig format's shape (parents by name).
 */
import { rigBone } from '../authoring/fromCreature';
import type { Bone } from '../rig/schema';
import type { Quat, Vec3 } from '../math';
import { jointOrder, parseSkeleton, rigidBones, type RigidChannelMap } from '../skeleton';

export interface SkeletonBone {
  name: string;
  /** Index into `bones`, -1 for a root. */
  parent: number;
  /** Rigid rest pose relative to the parent bone's rigid frame (file units; unit quaternion [x, y, z, w];
   *  scale always 1): every non-bone node between the two (an "Armature", a Z_UP turn, a ×0.01) folded in
   *  (shared/skeleton/rigid.ts). Bone world = the file's rest world transform without its scale. */
  translation: Vec3;
  rotation: Quat;
  scale: Vec3;
  /** glTF node index. */
  node: number;
  /** How the node's animation keys map to this rigid rest (absent: identity, as for FBX bones whose
   *  clips were mapped when read). */
  channel?: RigidChannelMap;
}

export interface SkeletonData { bones: SkeletonBone[] }

/**
 * The skeleton of a .glb or .gltf (`resources`: the files a .gltf names, keyed by URI). Throws
 * shared/skeleton's CreatureLoadError, "FILE: reason", for a file it cannot rig — including two bones
 * with one name, since documents refer to bones by the file's names. Only the skeleton is read: a broken
 * mesh or clip does not stop it.
 */
export function skeletonFromGltf(bytes: Uint8Array, fileName: string, resources: Readonly<Record<string, Uint8Array>> = {}): SkeletonData {
  const read = parseSkeleton({ name: fileName, bytes, resources: { ...resources } }, { duplicateNames: 'refuse' });
  const order = jointOrder(read);
  const position = new Map(order.map((bone, i) => [bone, i]));
  const rigid = rigidBones(read.skeleton.bones);
  return {
    bones: order.map((i) => {
      const b = read.skeleton.bones[i]!;
      const { translation, rotation } = rigid[i]!.local;
      return { name: b.name, parent: b.parent >= 0 ? position.get(b.parent)! : -1, translation, rotation, scale: [1, 1, 1], node: b.node, channel: rigid[i]!.channel };
    }),
  };
}

/** The skeleton in the rig format's shape: parents by name, rest rounded as every rig file stores it. */
export function rigBonesOf(skeleton: SkeletonData): Bone[] {
  return skeleton.bones.map((b) => rigBone(b.name, b.parent >= 0 ? skeleton.bones[b.parent]!.name : null, b));
}
