/**
 * A loaded creature (three objects from the shell's loader) → shared/authoring's AuthoringSkeleton: the
 * rig-format bones, and per skinned primitive its vertices *as three draws them at the rest pose*
 * (SkinnedMesh.applyBoneTransform: bone world · inverse bind, so a rest pose that differs from the bind pose
 * is followed) with their four joint indices and weights (three keeps glTF's JOINTS_0 / WEIGHTS_0 as
 * skinIndex / skinWeight, in the skin's joint order, which is mesh.skeleton.bones). Unskinned meshes that
 * hang under a bone are that bone's geometry (a one-joint "skin"). Positions are in the frame above the
 * creature's root (whatever scales the editor puts on the root's parent is left out), times `scale` — the
 * rig's skeleton.scale — like the bones. Pure three.js: the CLI uses it for FBX files too.
 */
import { Matrix4, Vector3, type Bone as ThreeBone, type Mesh, type Object3D, type SkinnedMesh } from 'three';
import { scaleSkeleton, type AuthoringSkeleton, type SkinData } from '../../../shared/authoring';
import type { Bone } from '../../../shared/rig';
import type { CreatureDisplay, SkeletonData } from '../creature/types';

export interface AuthoringSource {
  display: CreatureDisplay;
  skeleton: SkeletonData;
  bones: Bone[];
  clips?: AuthoringSkeleton['clips'];
}

export function authoringSkeleton(creature: AuthoringSource, scale = 1): AuthoringSkeleton {
  const skins: SkinData[] = [];
  const v = new Vector3();
  const root = creature.display.root;
  root.updateMatrixWorld(true);
  const base = new Matrix4();
  if (root.parent) base.copy(root.parent.matrixWorld).invert();
  const nameOf = (o: Object3D): string | null => {
    const i = creature.display.boneObjects.indexOf(o);
    return i >= 0 ? creature.skeleton.bones[i]!.name : null;
  };
  for (const mesh of creature.display.skinnedMeshes) {
    const g = mesh.geometry;
    const pos = g.getAttribute('position'), idx = g.getAttribute('skinIndex'), w = g.getAttribute('skinWeight');
    if (!pos || !idx || !w) continue;
    const n = pos.count;
    const positions = new Float32Array(3 * n), joints = new Uint16Array(4 * n), weights = new Float32Array(4 * n);
    const world = new Matrix4().multiplyMatrices(base, mesh.matrixWorld);
    for (let i = 0; i < n; i++) {
      v.fromBufferAttribute(pos, i);
      (mesh as SkinnedMesh).applyBoneTransform(i, v);
      v.applyMatrix4(world);
      positions[3 * i] = v.x; positions[3 * i + 1] = v.y; positions[3 * i + 2] = v.z;
      for (let k = 0; k < 4; k++) {
        joints[4 * i + k] = idx.getComponent(i, k);
        weights[4 * i + k] = w.getComponent(i, k);
      }
    }
    // Names through the display's bone objects: three sanitises node names, the rig keeps the file's.
    const jointNames = mesh.skeleton.bones.map((b: ThreeBone) => nameOf(b) ?? b.name);
    skins.push({ positions, joints, weights, jointNames });
  }
  // Rigid meshes under bones.
  root.traverse((o) => {
    const m = o as Mesh;
    if (!m.isMesh || (o as SkinnedMesh).isSkinnedMesh) return;
    let a: Object3D | null = o.parent, bone: string | null = null;
    while (a && a !== root && !(bone = nameOf(a))) a = a.parent;
    const pos = m.geometry.getAttribute('position');
    if (!bone || !pos) return;
    const world = new Matrix4().multiplyMatrices(base, m.matrixWorld);
    const positions = new Float32Array(3 * pos.count);
    for (let i = 0; i < pos.count; i++) {
      v.fromBufferAttribute(pos, i).applyMatrix4(world);
      positions[3 * i] = v.x; positions[3 * i + 1] = v.y; positions[3 * i + 2] = v.z;
    }
    const joints = new Uint16Array(4 * pos.count), weights = new Float32Array(4 * pos.count);
    for (let i = 0; i < pos.count; i++) weights[4 * i] = 1;
    skins.push({ positions, joints, weights, jointNames: [bone], rigid: true });
  });
  return scaleSkeleton({ bones: creature.bones, skins, clips: creature.clips }, scale);
}
