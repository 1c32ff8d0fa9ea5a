/**
 * The scene three's FBXLoader built from an FBX file → what the editor works with: the display objects
 * in metres, the skeleton as the same shared SkeletonData the glTF path gives, and the clips as editor
 * clips (shared/authoring AnimationClip), each channel in that skeleton's terms.
 *
 * Units. FBX stores lengths in file units and GlobalSettings.UnitScaleFactor says how many centimetres
 * one unit is (1 = cm, the FBX default and what Maya, Max, Unity and Unreal usually write; 100 = m).
 * FBXLoader leaves the numbers as they are and reports the factor in userData.unitScaleFactor, so the
 * file's scene goes under a root scaled by s = UnitScaleFactor / 100 (m per unit): what is drawn, picked
 * and framed is in metres, and three's skinning (bone world · inverse bind) stays exactly the file's.
 *
 * Axes. Marionette is +Y up like glTF. FBXLoader rotates a Z-up file (GlobalSettings UpAxis = 2, 3ds Max,
 * Unreal-style) by −90° about X at its scene root; that rotation is part of every bone's world transform
 * below, so the skeleton comes out Y-up. Y-up files (Maya, Blender's default export) need nothing.
 *
 * Skeleton. The bones are the skinned meshes' skeletons (the Skin deformer's Clusters, in cluster order,
 * parents first) — the same rule as glTF's skin joints, so end-site LimbNodes without a cluster are not
 * bones. Each bone's rest frame is rigid: position (m) and rotation of its world transform under the
 * root, scale left out (scale in an FBX hierarchy is how the file stores units, not something a ragdoll
 * body has). A bone's rest translation/rotation is relative to its parent bone's frame; non-bone nodes
 * between two bones (an "Armature" null) are folded in.
 *
 * Clips. FBXLoader turns each AnimationStack into a clip of position / quaternion / scale tracks on
 * three's node names (Euler curves already converted to quaternions). A track sets a node's local
 * transform L under its parent node P; the editor's local is relative to the parent bone B (rigid
 * frames): with O = rigid(B)⁻¹·rigid(P) fixed at rest and σ = P's world scale (uniform), a key becomes
 * translation O.t + O.R·(σ·L.t) and rotation O.R·L.R — exact per key, and linear interpolation and slerp
 * commute with it, so the keys keep their times. Scale tracks are dropped (rigid frames).
 */
import { Group, InterpolateDiscrete, Matrix4, Quaternion, Vector3, type AnimationClip as ThreeClip, type Bone, type Object3D, type SkinnedMesh } from 'three';
import type { AnimationClip, ClipChannel } from '../../../../shared/authoring/skeletonInput';
import type { CreatureDisplay, SkeletonBone, SkeletonData } from '../types';
import { meshStats } from '../loadDisplay';

/** A rigid frame: position (m) and rotation, scale removed. */
interface Frame { p: Vector3; q: Quaternion }

export interface FbxCreature {
  skeleton: SkeletonData;
  display: CreatureDisplay;
  clips: AnimationClip[];
  /** Clips or tracks left out, one message each naming the file. */
  clipProblems: string[];
  /** Metres per file unit used (UnitScaleFactor / 100). */
  metresPerUnit: number;
}

export function creatureFromFbxScene(scene: Group, clips: readonly ThreeClip[], fileName: string): FbxCreature {
  const unitScaleFactor = scene.userData.unitScaleFactor === undefined ? 1 : Number(scene.userData.unitScaleFactor);
  if (!Number.isFinite(unitScaleFactor) || unitScaleFactor <= 0) {
    throw new Error(`${fileName}: GlobalSettings UnitScaleFactor is ${String(scene.userData.unitScaleFactor)}; it must be a positive number of centimetres per unit`);
  }
  const metresPerUnit = unitScaleFactor / 100;
  const root = new Group();
  root.name = fileName;
  root.scale.setScalar(metresPerUnit);
  root.add(scene);
  root.updateMatrixWorld(true);

  const skinned: SkinnedMesh[] = [];
  scene.traverse((o) => { if ((o as SkinnedMesh).isSkinnedMesh) skinned.push(o as SkinnedMesh); });
  if (skinned.length === 0) throw new Error(`${fileName}: no skinned mesh (no Skin deformer) — Marionette needs a rigged creature (a mesh skinned to a skeleton)`);
  const bones = orderedBones(scene, skinned);
  if (bones.length === 0) throw new Error(`${fileName}: the skin has no bones (its Clusters link to no LimbNode models)`);

  const index = new Map<Object3D, number>(bones.map((b, i) => [b, i]));
  const parentOf = bones.map((b) => {
    let a = b.parent;
    while (a && !index.has(a)) a = a.parent;
    return a ? index.get(a)! : -1;
  });
  const world = bones.map((b) => rigid(b.matrixWorld));
  const order = new Map<Object3D, number>();
  scene.traverse((o) => order.set(o, order.size));
  const names = new Map<string, number>();
  const skeletonBones: SkeletonBone[] = bones.map((b, i) => {
    const name = typeof b.userData.originalName === 'string' && b.userData.originalName !== '' ? b.userData.originalName : b.name || `bone_${i}`;
    if (names.has(name)) throw new Error(`${fileName}: two bones are named "${name}" (bone names must be unique to rig them)`);
    names.set(name, i);
    const parent = parentOf[i]!;
    const local = parent < 0 ? world[i]! : relative(world[parent]!, world[i]!);
    return {
      name, parent,
      translation: [local.p.x, local.p.y, local.p.z],
      rotation: [local.q.x, local.q.y, local.q.z, local.q.w],
      scale: [1, 1, 1],
      // FBX has no glTF node index: the bone's place in a depth-first walk of the file's scene.
      node: order.get(b)!,
    };
  });

  const stats = meshStats(root);
  const display: CreatureDisplay = { root, boneObjects: bones, ...stats };
  const { clips: editorClips, problems } = convertClips(clips, bones, skeletonBones, parentOf, world, fileName);
  return { skeleton: { bones: skeletonBones }, display, clips: editorClips, clipProblems: problems, metresPerUnit };
}

/** The skins' bones in cluster order, first skin first; parents-first order of the scene when that
 *  order would list a child before its parent. */
function orderedBones(scene: Object3D, skinned: readonly SkinnedMesh[]): Bone[] {
  const seen = new Set<Bone>();
  const list: Bone[] = [];
  for (const mesh of skinned) {
    for (const b of mesh.skeleton?.bones ?? []) {
      if (b && !seen.has(b)) { seen.add(b); list.push(b); }
    }
  }
  const position = new Map(list.map((b, i) => [b as Object3D, i]));
  const childFirst = list.some((b, i) => {
    for (let a = b.parent; a; a = a.parent) if ((position.get(a) ?? -1) > i) return true;
    return false;
  });
  if (!childFirst) return list;
  const depthFirst: Bone[] = [];
  scene.traverse((o) => { if (seen.has(o as Bone)) depthFirst.push(o as Bone); });
  return depthFirst;
}

const tmpScale = new Vector3();

function rigid(m: Matrix4): Frame {
  const p = new Vector3(), q = new Quaternion();
  m.decompose(p, q, tmpScale);
  return { p, q };
}

/** a⁻¹·b for rigid frames. */
function relative(a: Frame, b: Frame): Frame {
  const inv = a.q.clone().invert();
  return { p: b.p.clone().sub(a.p).applyQuaternion(inv), q: inv.multiply(b.q) };
}

function convertClips(clips: readonly ThreeClip[], bones: readonly Bone[], skeleton: readonly SkeletonBone[], parentOf: readonly number[],
  world: readonly Frame[], fileName: string): { clips: AnimationClip[]; problems: string[] } {
  const byNodeName = new Map(bones.map((b, i) => [b.name, i]));
  // Per bone: O (parent node → parent bone, rigid) and σ (the parent node's world scale, m per local unit).
  const offsets = bones.map((b, i) => {
    const parentNode = b.parent!;
    const scale = new Vector3();
    parentNode.matrixWorld.decompose(new Vector3(), new Quaternion(), scale);
    const node = rigid(parentNode.matrixWorld);
    const parent = parentOf[i]!;
    return { offset: parent < 0 ? node : relative(world[parent]!, node), sigma: (scale.x + scale.y + scale.z) / 3 };
  });
  const out: AnimationClip[] = [];
  const problems: string[] = [];
  const names = new Set<string>();
  clips.forEach((clip, c) => {
    const name = clip.name || `animation_${c}`;
    if (names.has(name)) { problems.push(`clip "${name}" left out: ${fileName}: an earlier clip has the same name (motors pick clips by name)`); return; }
    names.add(name);
    const channels: ClipChannel[] = [];
    for (const track of clip.tracks) {
      const dot = track.name.lastIndexOf('.');
      const bone = byNodeName.get(track.name.slice(0, dot));
      const property = track.name.slice(dot + 1);
      // Tracks on nodes that are not bones (the mesh, a null) and scale tracks: not a ragdoll's business.
      if (bone === undefined || (property !== 'position' && property !== 'quaternion')) continue;
      const { offset, sigma } = offsets[bone]!;
      const values = new Float64Array(track.values.length);
      const v = new Vector3(), q = new Quaternion();
      const n = property === 'position' ? 3 : 4;
      for (let k = 0; k < track.times.length; k++) {
        const o = k * n;
        if (n === 3) {
          v.set(track.values[o]!, track.values[o + 1]!, track.values[o + 2]!).multiplyScalar(sigma).applyQuaternion(offset.q).add(offset.p);
          values[o] = v.x; values[o + 1] = v.y; values[o + 2] = v.z;
        } else {
          q.set(track.values[o]!, track.values[o + 1]!, track.values[o + 2]!, track.values[o + 3]!).premultiply(offset.q).normalize();
          values[o] = q.x; values[o + 1] = q.y; values[o + 2] = q.z; values[o + 3] = q.w;
        }
      }
      channels.push({
        bone: skeleton[bone]!.name,
        path: n === 3 ? 'translation' : 'rotation',
        interpolation: track.getInterpolation() === InterpolateDiscrete ? 'STEP' : 'LINEAR',
        times: Float64Array.from(track.times),
        values,
      });
    }
    out.push({ name, channels });
  });
  return { clips: out, problems };
}
