/**
 * Bytes of a creature file → a LoadedCreature, or an Error whose message names the file and the reason.
 * Nothing is committed to the editor until this resolves, so a bad file leaves the current creature alone.
 */
import { parseGltfDisplay, buildDisplay } from './loadDisplay';
import { skeletonFromGltfJson } from './skeletonFromJson';
import type { Bone } from '../../../shared/rig';
import type { LoadedCreature, SkeletonData } from './types';

let nextCreatureId = 1;

const SUPPORTED = /\.(glb|gltf)$/i;

export async function loadCreature(fileName: string, bytes: Uint8Array, resources: Record<string, Uint8Array>): Promise<LoadedCreature> {
  if (!SUPPORTED.test(fileName)) {
    throw new Error(`${fileName}: unsupported file type (open a glTF 2.0 creature: .glb, or .gltf with its .bin and textures)`);
  }
  if (bytes.byteLength === 0) throw new Error(`${fileName}: the file is empty`);
  const gltf = await parseGltfDisplay(bytes, fileName, resources);
  const skeleton = skeletonFromGltfJson(gltf.parser.json, fileName);
  const bones = rigBones(skeleton, fileName);
  const display = buildDisplay(gltf, skeleton, fileName);
  return { id: nextCreatureId++, fileName, skeleton, bones, display };
}

/** Bones in the rig format: names must be unique because the rig refers to bones by name. */
function rigBones(skeleton: SkeletonData, fileName: string): Bone[] {
  const seen = new Set<string>();
  for (const b of skeleton.bones) {
    if (seen.has(b.name)) throw new Error(`${fileName}: two bones are named "${b.name}" (bone names must be unique to rig them)`);
    seen.add(b.name);
  }
  return skeleton.bones.map((b) => ({
    name: b.name,
    parent: b.parent >= 0 ? skeleton.bones[b.parent]!.name : null,
    rest: { translation: [...b.translation], rotation: [...b.rotation], scale: [...b.scale] },
  }));
}
