/** What Marionette reads from a rigged creature file: plain, serialisable data (arrays and numbers only,
 *  no typed arrays, no classes), independent of three.js. Units are the file's (glTF: metres), axes are
 *  glTF's (+Y up, +Z forward for our creatures). Matrices are column-major 4×4 as in glTF. */
import type { TRS, Vec3 } from '../math';

/** The bytes of a creature file and, for a .gltf, the sibling files it references keyed by their URI as
 *  written in the .gltf (the shape of PickedFile in shared/platform.ts). */
export interface CreatureSource {
  name: string;
  bytes: Uint8Array;
  resources?: Record<string, Uint8Array>;
}

export interface BoneRest {
  /** The node's own transform (what animation channels replace), relative to its parent node. */
  local: TRS;
  /** Fixed transform from the parent bone's frame (for a root bone: from the scene) to the frame of the
   *  node's parent node. Identity unless non-joint nodes (e.g. an "Armature" node) sit in between. */
  parentOffset: TRS;
  /** Rest world transform: world(parent) · parentOffset · local. */
  world: TRS;
}

/** Where a bone ends, used to size bodies. Picked in this order: (1) the child whose head lies within
 *  30° of the bone's local +Y (the Blender/Maya bone axis), the most aligned one; (2) the only child;
 *  (3) along local +Y, as far as the skinned vertices the bone owns reach; (4) none (length 0). */
export interface BoneTail {
  /** World rest position of the tail. */
  position: Vec3;
  /** Distance head → tail (m). */
  length: number;
  source: 'child' | 'vertices' | 'none';
  /** Bone index of the child used when source is 'child', else -1. */
  child: number;
}

export interface Bone {
  name: string;
  /** Index of the glTF node. */
  node: number;
  /** Index of the parent bone in Skeleton.bones, -1 for a root. Parents come before children. */
  parent: number;
  children: number[];
  rest: BoneRest;
  /** From the first skin that lists this bone (identity when the skin has none). */
  inverseBindMatrix: number[];
  tail: BoneTail;
}

export interface Skeleton {
  /** Depth-first order of the node hierarchy: every parent precedes its children. */
  bones: Bone[];
  roots: number[];
}

export interface SkinInfo {
  name: string;
  /** Bone indices, in the skin's joint order (JOINTS_n attributes index into this list). */
  joints: number[];
  /** The skin's `skeleton` node as a bone index, or -1. */
  skeletonRoot: number;
  /** glTF nodes that draw a mesh with this skin. */
  meshNodes: number[];
}

/** The skinned vertices a bone "mostly owns" (its weight is the largest of the vertex's influences), at
 *  the rest pose, in the bone's frame: origin at the bone head, axes of its rest world rotation, scale
 *  removed (so numbers are in metres). Enough to fit a capsule, box or sphere per bone. */
export interface BoneVertexStats {
  bone: number;
  count: number;
  /** Axis-aligned bounds in the bone frame; zeros when count is 0. */
  boundsMin: Vec3;
  boundsMax: Vec3;
  /** Unit bone axis in the bone frame: toward the tail, or +Y when the bone has none. */
  axis: Vec3;
  /** Range of the vertices' projections on the axis (m). */
  axialMin: number;
  axialMax: number;
  /** Mean and largest distance of the vertices from the axis line through the head (m). */
  meanRadius: number;
  maxRadius: number;
}

export type ChannelPath = 'translation' | 'rotation' | 'scale';
export type Interpolation = 'LINEAR' | 'STEP' | 'CUBICSPLINE';

export interface AnimationChannel {
  bone: number;
  path: ChannelPath;
  interpolation: Interpolation;
  /** Key times (s), non-decreasing. */
  times: number[];
  /** Flattened values: 3 (translation, scale) or 4 (rotation, x y z w) per key; for CUBICSPLINE three
   *  such tuples per key: in-tangent, value, out-tangent. */
  values: number[];
}

export interface AnimationClip {
  name: string;
  /** Last key time over all channels (s). */
  duration: number;
  channels: AnimationChannel[];
}

/** Local transform per bone (same order as Skeleton.bones). */
export type LocalPose = TRS[];

/** One primitive drawn with a skin: its vertices at the rest pose (model space, file units: glTF's
 *  skinning formula Σ wₖ · world(jointₖ) · inverseBind(jointₖ) · POSITION, which equals the bind-pose
 *  positions when the rest pose is the bind pose) with their first set of four influences. */
export interface SkinnedPrimitive {
  /** glTF node that draws it, its mesh and the primitive's index in that mesh. */
  node: number;
  mesh: number;
  primitive: number;
  /** Index into Creature.skins. */
  skin: number;
  /** x, y, z per vertex. */
  positions: number[];
  /** JOINTS_0: four indices per vertex into skins[skin].joints. */
  joints: number[];
  /** WEIGHTS_0: four weights per vertex, matching joints. */
  weights: number[];
}

/** A mesh primitive that is not skinned but hangs under a bone (directly or through non-bone nodes): it
 *  moves rigidly with that bone, so it is that bone's geometry. */
export interface RigidPart {
  node: number;
  mesh: number;
  primitive: number;
  /** Bone index of the nearest bone ancestor. */
  bone: number;
  /** x, y, z per vertex at rest (model space, file units). */
  positions: number[];
}

export interface MeshSummary {
  vertexCount: number;
  skinnedVertexCount: number;
  triangleCount: number;
}

/** The skeleton part of a creature file (parseSkeleton). */
export interface CreatureSkeleton {
  fileName: string;
  format: 'glb' | 'gltf';
  generator: string | null;
  skeleton: Skeleton;
  skins: SkinInfo[];
  /** Things that were tolerated but a user may want to know (renamed duplicate bones, ignored channels). */
  warnings: string[];
}

export interface Creature extends CreatureSkeleton {
  /** One entry per bone, same order as Skeleton.bones. */
  boneVertices: BoneVertexStats[];
  /** The skinned primitives' vertices and influences, for fitting shapes of one's own. */
  skinnedPrimitives: SkinnedPrimitive[];
  /** Rigid (unskinned) mesh primitives under bones. */
  rigidParts: RigidPart[];
  clips: AnimationClip[];
  mesh: MeshSummary;
}
