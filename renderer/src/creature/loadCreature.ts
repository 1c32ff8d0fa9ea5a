/**
 * Bytes of a creature file → a LoadedCreature, or an Error whose message names the file and the reason.
 * glTF: the skeleton data comes from shared/document over shared/skeleton's glTF reader (pure, independent
 * of three); three's GLTFLoader parses the same bytes for display only. FBX: three's FBXLoader parses it
 * and fbx/fbxCreature.ts converts its scene into the same skeleton data, in metres and Y-up. Nothing is
 * committed to the editor until this resolves, so a bad file leaves the current creature alone.
 */
import { clipsFromGltf, rigBonesOf, skeletonFromGltf } from '../../../shared/document';
import { preflightGltf } from '../../../shared/skeleton/gltfPreflight';
import { parseGltfDisplay, buildDisplay } from './loadDisplay';
import { loadFbx } from './fbx/loadFbx';
import type { LoadedCreature } from './types';

let nextCreatureId = 1;

const GLTF = /\.(glb|gltf)$/i;
const FBX = /\.fbx$/i;

export async function loadCreature(fileName: string, bytes: Uint8Array, resources: Record<string, Uint8Array>): Promise<LoadedCreature> {
  if (!GLTF.test(fileName) && !FBX.test(fileName)) {
    throw new Error(`${fileName}: unsupported file type (open a glTF 2.0 creature — .glb, or .gltf with its .bin and textures — or an FBX 7.x .fbx)`);
  }
  if (bytes.byteLength === 0) throw new Error(`${fileName}: the file is empty`);
  if (FBX.test(fileName)) {
    const fbx = loadFbx(fileName, bytes, resources);
    for (const w of fbx.warnings) console.warn(w);
    return {
      id: nextCreatureId++, fileName, skeleton: fbx.skeleton, bones: rigBonesOf(fbx.skeleton), display: fbx.display,
      clips: fbx.clips, clipProblems: fbx.clipProblems, warnings: fbx.warnings,
    };
  }
  // The data first: it gives the precise reasons (no skin, bad joints) before the display loader runs.
  const skeleton = skeletonFromGltf(bytes, fileName, resources);
  // Every accessor's declared size against its bytes, before the display loader allocates them.
  preflightGltf(bytes, fileName, resources);
  const gltf = await parseGltfDisplay(bytes, fileName, resources);
  const display = buildDisplay(gltf, skeleton, fileName);
  // Clips as plain data for the preview's animation targets; a broken clip is reported, not fatal.
  const { clips, problems } = clipsFromGltf(bytes, fileName, skeleton, resources);
  return { id: nextCreatureId++, fileName, skeleton, bones: rigBonesOf(skeleton), display, clips, clipProblems: problems, warnings: [] };
}
