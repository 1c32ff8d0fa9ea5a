/**
 * What the renderer knows about a loaded creature. `skeleton` is plain data (shared/document's parse of the
 * file, independent of three); `display` holds the three.js objects that draw it and is never saved.
 */
import type { Group, Object3D, SkinnedMesh } from 'three';
import type { SkeletonData } from '../../../shared/document';
import type { Bone } from '../../../shared/rig';
import type { AnimationClip } from '../../../shared/authoring/skeletonInput';

export type { SkeletonBone, SkeletonData } from '../../../shared/document';

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
  /** The file's animation clips as keyframe data (shared/document clipsFromGltf): motor targets with
   *  source "animation" follow them in the preview. */
  clips: AnimationClip[];
  /** Clips the file has but that could not be read (one message each, naming the file and field). */
  clipProblems: string[];
  /** Things tolerated that the user may want to know (e.g. an FBX texture that was not provided). */
  warnings: string[];
}
