/**
 * Which files make up a creature: a .glb is usually self-contained, a .gltf names its buffers and images
 * by URI, relative to the .gltf. Both the desktop (reading beside the file) and the browser (matching the
 * files the user picked together) need that list; this is the one parser for it. Pure: bytes in, list out.
 */
import { decodeUtf8 } from './utf8';

/** 'mjcf': a MuJoCo .xml, opened as a rig whose shapes are drawn (no mesh; shared/export/mjcfImport.ts). */
export type CreatureFormat = 'glb' | 'gltf' | 'fbx' | 'mjcf';

export const CREATURE_EXTENSIONS: readonly string[] = ['.glb', '.gltf', '.fbx', '.xml'];

export function creatureFormatOf(fileName: string): CreatureFormat | null {
  const match = /\.(glb|gltf|fbx|xml)$/i.exec(fileName);
  if (!match) return null;
  const ext = match[1]!.toLowerCase();
  return ext === 'xml' ? 'mjcf' : (ext as CreatureFormat);
}

/** A glTF creature, whose buffers and images are resources beside it. */
export const isGltfFormat = (format: CreatureFormat | null): boolean => format === 'glb' || format === 'gltf';

export interface GltfResourceRef {
  kind: 'buffer' | 'image';
  index: number;
  /** As written in the glTF (still URI-encoded: "my%20mesh.bin"). */
  uri: string;
}

const GLB_MAGIC = 0x46546c67; // 'glTF' little-endian
const CHUNK_JSON = 0x4e4f534a; // 'JSON'

/** The glTF JSON text of a .gltf or .glb file; errors name the file and what is wrong. */
export function gltfJsonText(bytes: Uint8Array, fileName: string): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength >= 4 && view.getUint32(0, true) === GLB_MAGIC) {
    // GLB layout: 12-byte header (magic, version, length), then chunks of (length, type, data).
    if (bytes.byteLength < 20) throw new Error(`${fileName}: truncated GLB (${bytes.byteLength} bytes, a header and a chunk header need 20).`);
    const version = view.getUint32(4, true);
    if (version !== 2) throw new Error(`${fileName}: GLB version ${version} is not supported (glTF 2.0 only).`);
    const chunkLength = view.getUint32(12, true);
    if (view.getUint32(16, true) !== CHUNK_JSON) throw new Error(`${fileName}: the first GLB chunk is not JSON.`);
    if (20 + chunkLength > bytes.byteLength) throw new Error(`${fileName}: truncated GLB (JSON chunk of ${chunkLength} bytes runs past the end of the file).`);
    return decodeUtf8(bytes.subarray(20, 20 + chunkLength));
  }
  return decodeUtf8(bytes);
}

function parseGltfJson(bytes: Uint8Array, fileName: string): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(gltfJsonText(bytes, fileName));
  } catch (error) {
    if (error instanceof SyntaxError) throw new Error(`${fileName}: not a glTF file (its JSON does not parse: ${error.message}).`);
    throw error;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error(`${fileName}: not a glTF file (the JSON is not an object).`);
  return json as Record<string, unknown>;
}

/** The external (non-`data:`) buffer and image URIs a glTF or GLB file refers to. */
export function listGltfResources(bytes: Uint8Array, fileName: string): GltfResourceRef[] {
  const json = parseGltfJson(bytes, fileName);
  const refs: GltfResourceRef[] = [];
  for (const kind of ['buffer', 'image'] as const) {
    const list = json[`${kind}s`];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new Error(`${fileName}: ${kind}s must be an array.`);
    list.forEach((item: unknown, index) => {
      if (typeof item !== 'object' || item === null) throw new Error(`${fileName}: ${kind}s[${index}] must be an object.`);
      const uri = (item as { uri?: unknown }).uri;
      if (uri === undefined) return; // GLB binary chunk or bufferView-backed image
      if (typeof uri !== 'string' || uri.length === 0) throw new Error(`${fileName}: ${kind}s[${index}].uri must be a non-empty string.`);
      if (uri.startsWith('data:')) return;
      refs.push({ kind, index, uri });
    });
  }
  return refs;
}

/** A URI as a file path fragment: percent-decoded ("my%20mesh.bin" → "my mesh.bin"). */
export function decodeResourceUri(uri: string, fileName: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    throw new Error(`${fileName}: resource URI "${uri}" is not valid percent-encoding.`);
  }
}

/** True for URIs with a scheme (http:, file:, ...) — a single drive letter "C:" is a Windows path. */
export function uriScheme(uri: string): string | null {
  const match = /^([A-Za-z][A-Za-z0-9+.-]+):/.exec(uri);
  return match ? match[1]!.toLowerCase() : null;
}
