/**
 * TEMPORARY until shared/skeleton lands: the skeleton of the first skin, read from the glTF JSON the
 * display loader already parsed. Same shape as shared/skeleton's result so the switch is one import.
 */
import type { Quat, Vec3 } from '../../../shared/math';
import type { SkeletonData } from './types';

interface GltfNode { name?: string; children?: number[]; translation?: number[]; rotation?: number[]; scale?: number[] }
interface GltfJson { nodes?: GltfNode[]; skins?: { joints: number[] }[] }

export function skeletonFromGltfJson(json: GltfJson, fileName: string): SkeletonData {
  const skin = json.skins?.[0];
  if (!skin || skin.joints.length === 0) throw new Error(`${fileName}: no skin (the file has no skeleton to rig)`);
  const nodes = json.nodes ?? [];
  const parentOf = new Map<number, number>();
  nodes.forEach((n, i) => n.children?.forEach((c) => parentOf.set(c, i)));
  const jointIndex = new Map(skin.joints.map((node, i) => [node, i]));
  return {
    bones: skin.joints.map((node, i) => {
      const n = nodes[node];
      if (!n) throw new Error(`${fileName}: skin joint ${i} points at missing node ${node}`);
      let p = parentOf.get(node);
      while (p !== undefined && !jointIndex.has(p)) p = parentOf.get(p);
      return {
        name: n.name ?? `bone_${i}`,
        parent: p === undefined ? -1 : jointIndex.get(p)!,
        translation: (n.translation ?? [0, 0, 0]) as Vec3,
        rotation: (n.rotation ?? [0, 0, 0, 1]) as Quat,
        scale: (n.scale ?? [1, 1, 1]) as Vec3,
        node,
      };
    }),
  };
}
