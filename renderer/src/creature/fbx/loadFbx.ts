/**
 * Bytes of an .fbx → the editor's creature parts (fbxCreature.ts), or an Error "FILE: reason". The header
 * is checked first (fbxHeader.ts: not FBX, older than 7.0), then three's FBXLoader parses binary or ASCII.
 *
 * Textures: an FBX names its images by path (often absolute, from the artist's machine). One the user
 * picked together with the .fbx is used (matched by file name); any other is left out with a warning and
 * the material drawn without it — a missing texture never refuses a rig. Embedded images are FBXLoader's
 * own business (blob URLs) and pass through. Materials become physically based (materials.ts).
 */
import { LoadingManager, type Group } from 'three';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
import { creatureFromFbxScene, type FbxCreature } from './fbxCreature';
import { readFbxHeader, type FbxHeader } from './fbxHeader';
import { standardMaterials } from './materials';

/** 1×1 white PNG: stands in for a texture the user did not provide, so nothing is fetched. */
const BLANK_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=';

export interface LoadedFbx extends FbxCreature {
  header: FbxHeader;
  /** Things tolerated that the user may want to know (textures left out), one message each. */
  warnings: string[];
}

export function loadFbx(fileName: string, bytes: Uint8Array, resources: Readonly<Record<string, Uint8Array>> = {}): LoadedFbx {
  const header = readFbxHeader(bytes, fileName);
  const warnings: string[] = [];
  const blobUrls: string[] = [];
  const byName = new Map(Object.entries(resources).map(([uri, data]) => [baseName(uri).toLowerCase(), data]));
  const manager = new LoadingManager();
  manager.setURLModifier((url) => {
    if (url.startsWith('data:') || url.startsWith('blob:')) return url;
    const name = baseName(decodeURIComponentSafe(url));
    const data = byName.get(name.toLowerCase());
    if (data && typeof URL.createObjectURL === 'function') {
      const blobUrl = URL.createObjectURL(new Blob([data.slice().buffer as ArrayBuffer]));
      blobUrls.push(blobUrl);
      return blobUrl;
    }
    warnings.push(`${fileName}: texture "${name}" was not provided (pick it together with the .fbx); drawn without it`);
    return BLANK_PNG;
  });
  let scene: Group;
  try {
    scene = new FBXLoader(manager).parse(bytes.slice().buffer as ArrayBuffer, '');
  } catch (e) {
    const reason = explainInternalError(e).replace(/^THREE\.FBXLoader:\s*/, '');
    throw new Error(`${fileName}: cannot be read as ${header.encoding} FBX ${Math.floor(header.version / 1000)}.${Math.floor((header.version % 1000) / 100)} (${reason})`);
  } finally {
    // Images load asynchronously from these URLs: release them once the manager is done with them.
    if (blobUrls.length > 0) manager.onLoad = () => { for (const u of blobUrls) URL.revokeObjectURL(u); };
  }
  standardMaterials(scene);
  let creature: FbxCreature;
  try {
    creature = creatureFromFbxScene(scene, scene.animations, fileName);
  } catch (e) {
    // Our own refusals already name the file; an internal error means the scene is malformed.
    if (e instanceof Error && e.message.startsWith(`${fileName}:`)) throw e;
    throw new Error(`${fileName}: its skeleton cannot be built (${explainInternalError(e)})`);
  }
  return { ...creature, header, warnings };
}

/**
 * A sentence for what a malformed file makes a parser throw: three's FBXLoader reads what the file declares
 * without checking it, so a damaged file surfaces as a TypeError or RangeError about JavaScript internals.
 * Those are translated; the loader's own messages pass through.
 */
export function explainInternalError(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  if (!(e instanceof TypeError || e instanceof RangeError || e instanceof SyntaxError)) return message;
  let m: RegExpExecArray | null;
  if ((m = /Cannot read propert(?:y|ies) of (?:undefined|null) \(reading '([^']*)'\)/.exec(message))) return `the file is damaged: a required "${m[1]}" entry is missing or refers to nothing`;
  if (/Cannot use 'in' operator/.test(message)) return 'the file is damaged: a node it refers to is missing or is not a node';
  if (/is not a function|is not iterable|is not an object/.test(message)) return 'the file is damaged: an entry has the wrong kind of value';
  if (/Maximum call stack/.test(message)) return 'the file is damaged: its node tree loops or nests too deeply';
  if (/Invalid typed array length|Invalid array length|out of (?:the )?(?:bounds|range)|Offset is outside|beyond the end/i.test(message)) return 'the file is damaged or cut short: a declared length runs past the end of the data';
  if (e instanceof SyntaxError) return `the file is damaged: ${message}`;
  return `the file is damaged (${(e as Error).name})`;
}

const baseName = (path: string): string => path.replace(/^.*[\\/]/, '');

function decodeURIComponentSafe(s: string): string {
  try { return decodeURIComponent(s); } catch { return s; }
}
