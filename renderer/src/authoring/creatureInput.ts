/**
 * A loaded creature (three objects from the shell's loader) → shared/authoring's AuthoringSkeleton: the
 * rig-format bones, and per skinned primitive the bind-pose vertex positions in model space with their
 * four joint indices and weights (three keeps glTF's JOINTS_0 / WEIGHTS_0 as skinIndex / skinWeight, in
 * the skin's joint order, which is mesh.skeleton.bones).
 */
import { Vector3 } from 'three';
import type { AuthoringSkeleton, SkinData } from '../../../shared/authoring';
import type { LoadedCreature } from '../creature/types';

export function authoringSkeleton(creature: LoadedCreature): AuthoringSkeleton {
  const skins: SkinData[] = [];
  const v = new Vector3();
  creature.display.root.updateMatrixWorld(true);
  for (const mesh of creature.display.skinnedMeshes) {
    const g = mesh.geometry;
    const pos = g.getAttribute('position'), idx = g.getAttribute('skinIndex'), w = g.getAttribute('skinWeight');
    if (!pos || !idx || !w) continue;
    const n = pos.count;
    const positions = new Float32Array(3 * n), joints = new Uint16Array(4 * n), weights = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) {
      // The mesh node's world matrix carries mesh space to model space (identity for the usual export).
      v.fromBufferAttribute(pos, i).applyMatrix4(mesh.matrixWorld);
      positions[3 * i] = v.x; positions[3 * i + 1] = v.y; positions[3 * i + 2] = v.z;
      for (let k = 0; k < 4; k++) {
        joints[4 * i + k] = idx.getComponent(i, k);
        weights[4 * i + k] = w.getComponent(i, k);
      }
    }
    // Names through the display's bone objects: three sanitises node names, the rig keeps the file's.
    const jointNames = mesh.skeleton.bones.map((b) => {
      const i = creature.display.boneObjects.indexOf(b);
      return i >= 0 ? creature.skeleton.bones[i]!.name : b.name;
    });
    skins.push({ positions, joints, weights, jointNames });
  }
  return { bones: creature.bones, skins };
}
