/**
 * What the renderer knows about a loaded creature. `skeleton` is plain data (shared/skeleton's parse of the
 * file, independent of three); `display` holds the three.js objects that draw it and is never saved.
 */
import type { Group, Object3D, SkinnedMesh } from 'three';
import type { Quat, Vec3 } from '../../../shared/math';
import type { Bone } from '../../../shared/rig';

export interface SkeletonBone {
  name: string;
  /** Index into `bones`, -1 for a root. */
  parent: number;
  /** Rest pose relative to the parent (metres, unit quaternion [x,y,z,w]). */
  translation: Vec3;
  rotation: Quat;
  scale: Vec3;
  /** glTF node index, the link between the data and the display objects. */
  node: number;
}

export interface SkeletonData {
  bones: SkeletonBone[];
}

export interface CreatureDisplay {
  root: Group;
  /** three's object for each skeleton bone, same order as SkeletonData.bones. */
  boneObjects: Object3D[];
  skinnedMeshes: SkinnedMesh[];
  triangles: number;
  vertices: number;
}

export interface LoadedCreature {
  /** Increments on every load, so views rebuild exactly when the creature changes. */
  id: number;
  fileName: string;
  skeleton: SkeletonData;
  /** The same skeleton in the rig format's shape (parents by name), what the document stores. */
  bones: Bone[];
  display: CreatureDisplay;
}
