/**
 * The animation clips of a glTF 2.0 creature as plain data (shared/authoring's AnimationClip: keyframe
 * channels per bone), read from the file's JSON and binary buffers with no three.js — the preview samples
 * them (shared/authoring/clip.ts) for motors whose target source is "animation".
 *
 * Only channels that animate a skeleton bone (a joint of the first skin, matched by glTF node index as in
 * creatureSkeleton.ts) and its translation, rotation or scale are kept; morph weights and other nodes are
 * not a ragdoll's business. Key values come from float accessors, or normalised integer ones (glTF 2.0
 * §3.11 / KHR_mesh_quantization: c / 127, c / 255, c / 32767, c / 65535), sparse accessors included.
 *
 * A clip that cannot be read is left out with a problem naming the file and the field, so a broken clip
 * never stops a creature from opening; the other clips still load.
 */
import type { AnimationClip, ClipChannel } from '../authoring/skeletonInput';
import { gltfJsonText } from '../project/gltfResources';
import type { SkeletonData } from './creatureSkeleton';

export interface CreatureClips {
  clips: AnimationClip[];
  /** One message per clip left out: "FILE: animations[i] ("NAME"): reason". */
  problems: string[];
}

interface Accessor { bufferView?: number; byteOffset?: number; componentType: number; count: number; type: string; normalized?: boolean; sparse?: Sparse }
interface Sparse { count: number; indices: { bufferView: number; byteOffset?: number; componentType: number }; values: { bufferView: number; byteOffset?: number } }
interface BufferView { buffer: number; byteOffset?: number; byteLength: number; byteStride?: number }
interface Gltf {
  accessors?: Accessor[];
  bufferViews?: BufferView[];
  buffers?: { uri?: string; byteLength: number }[];
  animations?: { name?: string; channels?: { sampler: number; target: { node?: number; path: string } }[]; samplers?: { input: number; output: number; interpolation?: string }[] }[];
}

const GLB_MAGIC = 0x46546c67;
const CHUNK_BIN = 0x004e4942;
const WIDTH: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
const BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const PATHS = new Set(['translation', 'rotation', 'scale']);

/**
 * Clips of a .glb or .gltf. `resources`: the external files a .gltf names, keyed by their decoded URI
 * (as the loader's file picker and the desktop reader give them).
 */
export function clipsFromGltf(bytes: Uint8Array, fileName: string, skeleton: SkeletonData, resources: Readonly<Record<string, Uint8Array>> = {}): CreatureClips {
  const json = JSON.parse(gltfJsonText(bytes, fileName)) as Gltf;
  const animations = Array.isArray(json.animations) ? json.animations : [];
  if (animations.length === 0) return { clips: [], problems: [] };
  const boneOfNode = new Map(skeleton.bones.map((b) => [b.node, b.name] as const));
  const glbBin = glbBinaryChunk(bytes);
  const buffers = new Map<number, Uint8Array>();
  const buffer = (i: number): Uint8Array => {
    let b = buffers.get(i);
    if (b) return b;
    const def = json.buffers?.[i];
    if (!def) throw new Error(`buffers[${i}] does not exist`);
    if (def.uri === undefined) {
      if (!glbBin || i !== 0) throw new Error(`buffers[${i}] has no uri and the file has no GLB binary chunk`);
      b = glbBin;
    } else if (def.uri.startsWith('data:')) {
      b = decodeDataUri(def.uri, `buffers[${i}].uri`);
    } else {
      const key = safeDecode(def.uri);
      b = resources[key] ?? resources[def.uri];
      if (!b) throw new Error(`buffers[${i}] is in "${key}", which was not provided`);
    }
    if (b.byteLength < def.byteLength) throw new Error(`buffers[${i}] holds ${b.byteLength} bytes, its byteLength says ${def.byteLength}`);
    buffers.set(i, b);
    return b;
  };
  const read = (index: number, field: string): { values: Float32Array; width: number; count: number } => readAccessor(json, index, buffer, field);

  const clips: AnimationClip[] = [];
  const problems: string[] = [];
  const names = new Set<string>();
  animations.forEach((anim, a) => {
    const name = typeof anim.name === 'string' && anim.name !== '' ? anim.name : `animation_${a}`;
    try {
      if (names.has(name)) throw new Error(`another clip is already named "${name}" (motors pick clips by name)`);
      const channels: ClipChannel[] = [];
      (anim.channels ?? []).forEach((ch, c) => {
        const bone = ch.target?.node === undefined ? undefined : boneOfNode.get(ch.target.node);
        if (bone === undefined || !PATHS.has(ch.target.path)) return;
        const s = anim.samplers?.[ch.sampler];
        if (!s) throw new Error(`channels[${c}].sampler ${ch.sampler} does not exist`);
        const interpolation = s.interpolation ?? 'LINEAR';
        if (interpolation !== 'LINEAR' && interpolation !== 'STEP' && interpolation !== 'CUBICSPLINE') throw new Error(`samplers[${ch.sampler}].interpolation "${interpolation}" is not LINEAR, STEP or CUBICSPLINE`);
        const input = read(s.input, `samplers[${ch.sampler}].input`), output = read(s.output, `samplers[${ch.sampler}].output`);
        const path = ch.target.path as ClipChannel['path'];
        const width = path === 'rotation' ? 4 : 3;
        if (input.width !== 1) throw new Error(`samplers[${ch.sampler}].input must be SCALAR key times`);
        if (output.width !== width) throw new Error(`samplers[${ch.sampler}].output must be ${width === 4 ? 'VEC4' : 'VEC3'} for ${path}`);
        const perKey = interpolation === 'CUBICSPLINE' ? 3 : 1;
        if (output.count !== input.count * perKey) throw new Error(`samplers[${ch.sampler}]: ${input.count} key times but ${output.count} values (${perKey} per key for ${interpolation})`);
        for (let k = 1; k < input.count; k++) {
          if (!(input.values[k]! > input.values[k - 1]!)) throw new Error(`samplers[${ch.sampler}].input: key times must increase (key ${k}: ${input.values[k]} after ${input.values[k - 1]})`);
        }
        channels.push({ bone, path, times: input.values, values: output.values, interpolation });
      });
      names.add(name);
      clips.push({ name, channels });
    } catch (e) {
      problems.push(`${fileName}: animations[${a}] ("${name}"): ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  return { clips, problems };
}

function readAccessor(json: Gltf, index: number, buffer: (i: number) => Uint8Array, field: string): { values: Float32Array; width: number; count: number } {
  const acc = json.accessors?.[index];
  if (!acc) throw new Error(`${field}: accessor ${index} does not exist`);
  const width = WIDTH[acc.type], size = BYTES[acc.componentType];
  if (!width || !size) throw new Error(`${field}: accessor ${index} has type ${acc.type} / componentType ${acc.componentType}, not a glTF animation accessor`);
  const values = new Float32Array(acc.count * width);
  if (acc.bufferView !== undefined) {
    readInto(values, json, acc.bufferView, acc.byteOffset ?? 0, acc.componentType, acc.count, width, acc.normalized === true, buffer, `${field} (accessor ${index})`);
  }
  if (acc.sparse) {
    // Sparse: `count` element indices, then their replacement values (glTF 2.0 §3.6.2.3).
    const sp = acc.sparse, idx = new Float32Array(sp.count), repl = new Float32Array(sp.count * width);
    readInto(idx, json, sp.indices.bufferView, sp.indices.byteOffset ?? 0, sp.indices.componentType, sp.count, 1, false, buffer, `${field} (accessor ${index} sparse indices)`);
    readInto(repl, json, sp.values.bufferView, sp.values.byteOffset ?? 0, acc.componentType, sp.count, width, acc.normalized === true, buffer, `${field} (accessor ${index} sparse values)`);
    for (let k = 0; k < sp.count; k++) {
      const e = idx[k]!;
      if (!(e >= 0 && e < acc.count)) throw new Error(`${field}: accessor ${index} sparse index ${e} is outside 0..${acc.count - 1}`);
      values.set(repl.subarray(k * width, (k + 1) * width), e * width);
    }
  }
  for (let k = 0; k < values.length; k++) if (!Number.isFinite(values[k])) throw new Error(`${field}: accessor ${index} holds a non-finite number at ${k}`);
  return { values, width, count: acc.count };
}

function readInto(out: Float32Array, json: Gltf, viewIndex: number, offset: number, componentType: number, count: number, width: number, normalized: boolean, buffer: (i: number) => Uint8Array, what: string): void {
  const view = json.bufferViews?.[viewIndex];
  if (!view) throw new Error(`${what}: bufferView ${viewIndex} does not exist`);
  const bytes = buffer(view.buffer);
  const size = BYTES[componentType]!;
  const stride = view.byteStride ?? size * width;
  const start = (view.byteOffset ?? 0) + offset;
  const end = count === 0 ? start : start + (count - 1) * stride + size * width;
  if (end > (view.byteOffset ?? 0) + view.byteLength || end > bytes.byteLength) throw new Error(`${what}: ${count} elements run past the end of bufferView ${viewIndex}`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let e = 0; e < count; e++) {
    for (let c = 0; c < width; c++) {
      const at = start + e * stride + c * size;
      let v: number;
      switch (componentType) {
        case 5126: v = dv.getFloat32(at, true); break;
        case 5120: v = dv.getInt8(at); if (normalized) v = Math.max(v / 127, -1); break;
        case 5121: v = dv.getUint8(at); if (normalized) v /= 255; break;
        case 5122: v = dv.getInt16(at, true); if (normalized) v = Math.max(v / 32767, -1); break;
        case 5123: v = dv.getUint16(at, true); if (normalized) v /= 65535; break;
        default: v = dv.getUint32(at, true);
      }
      out[e * width + c] = v;
    }
  }
}

/** The BIN chunk of a GLB (the one buffer without a uri), or null for a .gltf. */
function glbBinaryChunk(bytes: Uint8Array): Uint8Array | null {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 20 || dv.getUint32(0, true) !== GLB_MAGIC) return null;
  // Chunks follow the 12-byte header: (length, type, data padded to 4 bytes).
  let o = 12;
  while (o + 8 <= bytes.byteLength) {
    const len = dv.getUint32(o, true), type = dv.getUint32(o + 4, true);
    if (type === CHUNK_BIN) return bytes.subarray(o + 8, Math.min(bytes.byteLength, o + 8 + len));
    o += 8 + len;
  }
  return null;
}

const safeDecode = (uri: string): string => { try { return decodeURIComponent(uri); } catch { return uri; } };

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A base64 data: URI's bytes (shared/ has no atob). */
function decodeDataUri(uri: string, field: string): Uint8Array {
  const comma = uri.indexOf(',');
  if (comma < 0 || !/;base64$/i.test(uri.slice(0, comma))) throw new Error(`${field}: only base64 data: URIs are supported`);
  const s = uri.slice(comma + 1).replace(/[\s=]/g, '');
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let bits = 0, acc = 0, n = 0;
  for (let i = 0; i < s.length; i++) {
    const v = B64.indexOf(s[i]!);
    if (v < 0) throw new Error(`${field}: "${s[i]}" at ${i} is not base64`);
    acc = (acc << 6) | v; bits += 6;
    if (bits >= 8) { bits -= 8; out[n++] = (acc >> bits) & 0xff; }
  }
  return out.subarray(0, n);
}
