/** The outer layer of a glTF file: a GLB binary container (12-byte header, a JSON chunk, an optional BIN
 *  chunk; little-endian, chunks 4-byte aligned) or a .gltf JSON text. Yields the parsed JSON and the BIN
 *  chunk; everything inside the JSON is checked by the document reader. */
import { decodeUtf8 } from './bytes';
import { CreatureLoadError, hex32 } from './errors';

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a; // "JSON"
const CHUNK_BIN = 0x004e4942; // "BIN\0"

export interface Container {
  format: 'glb' | 'gltf';
  json: unknown;
  /** The GLB's BIN chunk (buffer 0 without a uri), or null. */
  bin: Uint8Array | null;
}

export function readContainer(fileName: string, bytes: Uint8Array): Container {
  const fail = (reason: string): never => { throw new CreatureLoadError(fileName, reason); };
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.fbx')) fail('FBX is not read by the skeleton reader (the headless CLI and runtime read glTF 2.0): open the .fbx in the editor, which converts it, or export the creature as .glb / .gltf');
  if (bytes.length === 0) fail('the file is empty');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = bytes.length >= 4 ? view.getUint32(0, true) : 0;
  if (magic === GLB_MAGIC) return readGlb(bytes, view, fail);
  if (lower.endsWith('.glb')) fail(`not a glTF binary (bad magic ${hex32(magic)})`);
  // Anything else must be glTF JSON: its first non-blank character is '{'.
  const text = decodeUtf8(bytes);
  if (text === null) fail('not a glTF file (neither a glTF binary nor UTF-8 JSON text)');
  return { format: 'gltf', json: parseJson(text!, fail, ''), bin: null };
}

function readGlb(bytes: Uint8Array, view: DataView, fail: (reason: string) => never): Container {
  if (bytes.length < 12) fail(`truncated glTF binary: ${bytes.length} bytes, the header alone is 12`);
  const version = view.getUint32(4, true);
  if (version !== 2) fail(`glTF binary version ${version} is not supported (Marionette reads glTF 2.0)`);
  const declared = view.getUint32(8, true);
  if (declared > bytes.length) fail(`truncated glTF binary: header says ${declared} bytes, the file has ${bytes.length}`);
  if (declared < 20) fail(`glTF binary too short (${declared} bytes): no JSON chunk`);
  let offset = 12;
  let json: unknown = undefined;
  let bin: Uint8Array | null = null;
  let index = 0;
  while (offset < declared) {
    if (offset + 8 > declared) fail(`truncated chunk header at byte ${offset}`);
    const length = view.getUint32(offset, true);
    const type = view.getUint32(offset + 4, true);
    const start = offset + 8;
    if (start + length > declared) fail(`truncated chunk ${index} (${chunkName(type)}): needs ${length} bytes at byte ${start}, the file ends at ${declared}`);
    const data = bytes.subarray(start, start + length);
    if (index === 0) {
      if (type !== CHUNK_JSON) fail(`the first chunk must be JSON, found ${chunkName(type)}`);
      const text = decodeUtf8(data);
      if (text === null) fail('the JSON chunk is not valid UTF-8');
      json = parseJson(text!, fail, 'in the JSON chunk ');
    } else if (type === CHUNK_BIN) {
      if (bin) fail('more than one BIN chunk');
      bin = data;
    } else if (type === CHUNK_JSON) {
      fail('more than one JSON chunk');
    } // Unknown chunk types are skipped, as the specification requires.
    offset = start + ((length + 3) & ~3);
    index++;
  }
  if (json === undefined) fail('no JSON chunk');
  return { format: 'glb', json, bin };
}

function chunkName(type: number): string {
  const chars = [0, 8, 16, 24].map((s) => (type >>> s) & 0xff);
  return chars.every((c) => c === 0 || (c >= 32 && c < 127))
    ? `"${String.fromCharCode(...chars.filter((c) => c !== 0))}"` : hex32(type);
}

function parseJson(text: string, fail: (reason: string) => never, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const m = /position (\d+)/.exec(message);
    if (m) {
      const pos = Number(m[1]);
      const before = text.slice(0, pos);
      const line = before.split('\n').length;
      const column = pos - before.lastIndexOf('\n');
      fail(`JSON parse error ${where}at line ${line}, column ${column}: ${message.replace(/ in JSON at position.*$/s, '')}`);
    }
    if (/end of JSON input/i.test(message)) fail(`JSON parse error ${where}at the end of the text: it stops in the middle of a value`);
    fail(`JSON parse error ${where}: ${message}`);
  }
}
