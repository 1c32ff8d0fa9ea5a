/**
 * What the authoring functions need to know about a creature file, as plain data: the bones in the rig
 * format's shape, the skinned vertices with their joint weights, and the animation clips as keyframe
 * channels. authoringSkeletonFromCreature (fromCreature.ts) fills it from shared/skeleton's reading of
 * the file; the editor fills it from the objects three's loader made for display.
 *
 * Space: skin positions are model space at the rest pose, in the rig's metres — where a viewer draws the
 * vertices when every bone is at its rest (glTF's skinning formula; equal to the bind-pose positions when
 * rest and bind agree). A rigid mesh under a bone comes as a one-joint skin.
 */
import type { ReadonlyVec3, Vec3 } from '../math/vec3';
import type { Bone } from '../rig/schema';

/** One skinned primitive: glTF POSITION, JOINTS_0 and WEIGHTS_0 flattened, and the skin's joint names. */
export interface SkinData {
  /** x, y, z per vertex (m, model space, bind pose). */
  positions: ArrayLike<number>;
  /** Four joint indices per vertex, into `jointNames`. */
  joints: ArrayLike<number>;
  /** Four weights per vertex, matching `joints`. */
  weights: ArrayLike<number>;
  /** Bone name of each skin joint index. */
  jointNames: readonly string[];
  /** A rigid (unskinned) mesh under a bone, given as a one-joint skin. */
  rigid?: boolean;
}

/** One animated property of one bone, as a glTF animation channel + sampler. */
export interface ClipChannel {
  bone: string;
  path: 'translation' | 'rotation' | 'scale';
  /** Key times (s), increasing. */
  times: ArrayLike<number>;
  /** 3 (translation, scale) or 4 (rotation, quaternion x y z w) numbers per key; CUBICSPLINE: in-tangent,
   *  value, out-tangent per key (glTF layout). */
  values: ArrayLike<number>;
  interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE';
}

export interface AnimationClip { name: string; channels: readonly ClipChannel[] }

export interface AuthoringSkeleton {
  bones: readonly Bone[];
  skins?: readonly SkinData[];
  clips?: readonly AnimationClip[];
}

/**
 * Per bone, the bind-pose positions of the vertices it "mostly owns": each vertex goes to the joint with
 * its largest weight (ties: the lower joint index, so the result is deterministic).
 */
export function ownedVertices(skins: readonly SkinData[] | undefined): Map<string, Vec3[]> {
  const out = new Map<string, Vec3[]>();
  for (const [s, skin] of (skins ?? []).entries()) {
    const n = Math.floor(skin.positions.length / 3);
    if (skin.joints.length < 4 * n || skin.weights.length < 4 * n) {
      throw new Error(`skins[${s}]: joints and weights need 4 numbers per vertex (${4 * n}), got ${skin.joints.length} and ${skin.weights.length}`);
    }
    for (let v = 0; v < n; v++) {
      let best = -1, bestW = 0;
      for (let k = 0; k < 4; k++) {
        const w = skin.weights[4 * v + k]!;
        if (w > bestW) { bestW = w; best = skin.joints[4 * v + k]!; }
      }
      if (best < 0) continue; // an unweighted vertex belongs to no bone
      const bone = skin.jointNames[best];
      if (bone === undefined) throw new Error(`skins[${s}]: vertex ${v} names joint ${best}, but the skin has ${skin.jointNames.length} joints`);
      let list = out.get(bone);
      if (!list) { list = []; out.set(bone, list); }
      list.push([skin.positions[3 * v]!, skin.positions[3 * v + 1]!, skin.positions[3 * v + 2]!]);
    }
  }
  return out;
}

export const asVec3 = (v: ReadonlyVec3): Vec3 => [v[0], v[1], v[2]];
