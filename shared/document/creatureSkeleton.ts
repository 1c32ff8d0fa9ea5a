/**
 * The skeleton of a glTF 2.0 creature as the editor keeps it: shared/skeleton's reading of the file (no
 * three.js), each bone with its parent bone, rest TRS and glTF node index, in the order of the file's
 * first skin. The renderer draws the mesh with three's loader and matches its bone objects to these by
 * node index; the document stores the same bones in the rig format's shape (parents by name).
 */
import { rigBone } from '../authoring/fromCreature';
import type { Bone } from '../rig/schema';
import type { Quat, Vec3 } from '../math';
import { jointOrder, parseSkeleton } from '../skeleton';

export interface SkeletonBone {
  name: string;
  /** Index into `bones`, -1 for a root. */
  parent: number;
  /** Rest pose relative to the parent joint (m; unit quaternion [x, y, z, w]; unitless scale). */
  translation: Vec3;
  rotation: Quat;
  scale: Vec3;
  /** glTF node index. */
  node: number;
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
  return {
    bones: order.map((i) => {
      const b = read.skeleton.bones[i]!;
      const { translation, rotation, scale } = b.rest.local;
      return { name: b.name, parent: b.parent >= 0 ? position.get(b.parent)! : -1, translation: [...translation], rotation: [...rotation], scale: [...scale], node: b.node };
    }),
  };
}

/** The skeleton in the rig format's shape: parents by name, rest rounded as every rig file stores it. */
export function rigBonesOf(skeleton: SkeletonData): Bone[] {
  return skeleton.bones.map((b) => rigBone(b.name, b.parent >= 0 ? skeleton.bones[b.parent]!.name : null, b));
}
