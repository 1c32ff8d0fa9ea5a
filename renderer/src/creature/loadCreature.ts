/**
 * Bytes of a creature file → a LoadedCreature, or an Error whose message names the file and the reason.
 * The skeleton data comes from shared/document over shared/skeleton's glTF reader (pure, independent of
 * three); three's GLTFLoader parses the same bytes for display only. Nothing is committed to the editor until this resolves, so a bad file leaves
 * the current creature alone.
 */
import { clipsFromGltf, rigBonesOf, skeletonFromGltf } from '../../../shared/document';
import { parseGltfDisplay, buildDisplay } from './loadDisplay';
import type { LoadedCreature } from './types';

let nextCreatureId = 1;

const SUPPORTED = /\.(glb|gltf)$/i;

export async function loadCreature(fileName: string, bytes: Uint8Array, resources: Record<string, Uint8Array>): Promise<LoadedCreature> {
  if (!SUPPORTED.test(fileName)) {
    throw new Error(`${fileName}: unsupported file type (open a glTF 2.0 creature: .glb, or .gltf with its .bin and textures)`);
  }
  if (bytes.byteLength === 0) throw new Error(`${fileName}: the file is empty`);
  // The data first: it gives the precise reasons (no skin, bad joints) before the display loader runs.
  const skeleton = skeletonFromGltf(bytes, fileName, resources);
  const gltf = await parseGltfDisplay(bytes, fileName, resources);
  const display = buildDisplay(gltf, skeleton, fileName);
  // Clips as plain data for the preview's animation targets; a broken clip is reported, not fatal.
  const { clips, problems } = clipsFromGltf(bytes, fileName, skeleton, resources);
  return { id: nextCreatureId++, fileName, skeleton, bones: rigBonesOf(skeleton), display, clips, clipProblems: problems };
}
