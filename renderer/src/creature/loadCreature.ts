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
import { explainInternalError, loadFbx } from './fbx/loadFbx';
import type { LoadedCreature } from './types';

let nextCreatureId = 1;

const GLTF = /\.(glb|gltf)$/i;
const FBX = /\.fbx$/i;
const MJCF = /\.xml$/i;

export async function loadCreature(fileName: string, bytes: Uint8Array, resources: Record<string, Uint8Array>): Promise<LoadedCreature> {
  if (MJCF.test(fileName) && bytes.byteLength > 0) {
    // A MuJoCo model: its rig's skeleton as a mesh-less glTF creature (the editor draws the bodies' shapes).
    const { mjcfCreature } = await import('../../../shared/export/mjcfImport');
    bytes = (await mjcfCreature(bytes, fileName)).glb;
    resources = {};
  } else if (!GLTF.test(fileName) && !FBX.test(fileName)) {
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
  let gltf: Awaited<ReturnType<typeof parseGltfDisplay>>;
  try {
    gltf = await parseGltfDisplay(bytes, fileName, resources);
  } catch (e) {
    // three's GLTFLoader trusts the file; what the preflight does not foresee surfaces as a JavaScript
    // internal error: say what it means.
    const cause = e instanceof Error ? (e.cause ?? e) : e;
    const message = e instanceof Error ? e.message : String(e);
    if (/Cannot read propert|Cannot use 'in'|is not a function|is not iterable|Invalid (typed )?array length|Maximum call stack|Offset is outside/.test(message)) {
      throw new Error(`${fileName}: ${explainInternalError(cause instanceof Error && cause !== e ? cause : Object.assign(new TypeError(message), {}))}`, { cause: e });
    }
    throw e;
  }
  const display = buildDisplay(gltf, skeleton, fileName);
  // Clips as plain data for the preview's animation targets; a broken clip is reported, not fatal.
  const { clips, problems } = clipsFromGltf(bytes, fileName, skeleton, resources);
  return { id: nextCreatureId++, fileName, skeleton, bones: rigBonesOf(skeleton), display, clips, clipProblems: problems, warnings: [] };
}
