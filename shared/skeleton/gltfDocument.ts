/** Checked access to the inside of a glTF 2.0 JSON document: top-level arrays, buffers (GLB chunk,
 *  data: URI or a caller-supplied resource), buffer views and accessors decoded to plain numbers.
 *  Every problem throws a CreatureLoadError naming the file, the object and the reason. */
import { decodeDataUri } from './bytes';
import type { Container } from './container';
import { CreatureLoadError } from './errors';

/** The most numbers one accessor may hold (2^25 ≈ 33.5 M, 268 MB as doubles): a skeleton, its skin and
 *  clips need a few million at most; the cap keeps a hostile file's declared count from exhausting memory. */
export const MAX_ACCESSOR_VALUES = 2 ** 25;

export type Json = Record<string, unknown>;

const COMPONENT_SIZE: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const COMPONENT_NAME: Record<number, string> = {
  5120: 'BYTE', 5121: 'UNSIGNED_BYTE', 5122: 'SHORT', 5123: 'UNSIGNED_SHORT', 5125: 'UNSIGNED_INT', 5126: 'FLOAT',
};

/** Extensions that only change materials or textures: a creature's skeleton reads fine without them. */
const HARMLESS_REQUIRED = /^(KHR_materials_|KHR_texture_|EXT_texture_|KHR_lights_punctual$|KHR_mesh_quantization$)/;

export interface AccessorData {
  type: string;
  componentType: number;
  count: number;
  /** Components per element (3 for VEC3, 16 for MAT4…). */
  size: number;
  /** count × size numbers; normalized integers already mapped to [0, 1] or [−1, 1]. */
  values: Float64Array;
}

export class GltfDocument {
  readonly json: Json;
  private readonly buffers = new Map<number, Uint8Array>();
  private readonly accessors = new Map<number, AccessorData>();

  constructor(readonly fileName: string, private readonly container: Container, private readonly resources: Record<string, Uint8Array>) {
    const json = container.json;
    if (typeof json !== 'object' || json === null || Array.isArray(json)) this.fail('the JSON is not a glTF object');
    this.json = json as Json;
    const asset = this.json.asset as Json | undefined;
    if (typeof asset !== 'object' || asset === null) this.fail('no "asset" object: not a glTF 2.0 file');
    const version = String(asset!.version ?? '');
    const major = Number(version.split('.')[0]);
    if (!/^\d+\.\d+$/.test(version)) this.fail(`asset.version "${version}" is not a glTF version`);
    if (major !== 2) this.fail(`glTF version ${version} is not supported (Marionette reads glTF 2.0)`);
    if (asset!.minVersion !== undefined && String(asset!.minVersion) !== '2.0') this.fail(`the file needs glTF ${String(asset!.minVersion)}; Marionette reads glTF 2.0`);
    const required = this.json.extensionsRequired;
    if (required !== undefined) {
      if (!Array.isArray(required)) this.fail('extensionsRequired is not an array');
      for (const ext of required as unknown[]) {
        if (typeof ext !== 'string' || !HARMLESS_REQUIRED.test(ext)) this.fail(`requires the extension ${String(ext)}, which Marionette cannot read (re-export without it)`);
      }
    }
  }

  get format(): 'glb' | 'gltf' { return this.container.format; }

  fail(reason: string): never { throw new CreatureLoadError(this.fileName, reason); }

  /** A top-level array of objects ("nodes", "skins"…); [] when absent. */
  list(key: string): Json[] {
    const v = this.json[key];
    if (v === undefined) return [];
    if (!Array.isArray(v)) this.fail(`"${key}" is not an array`);
    (v as unknown[]).forEach((item, i) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) this.fail(`${key}[${i}] is not an object`);
    });
    return v as Json[];
  }

  /** Checks that `value` is an index into the top-level array `key`; `what` names who refers to it. */
  index(value: unknown, key: string, what: string): number {
    const n = this.list(key).length;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= n) {
      this.fail(`${what} refers to ${singular(key)} ${JSON.stringify(value)}, but the file has ${n === 0 ? 'none' : `${n} (0–${n - 1})`}`);
    }
    return value as number;
  }

  buffer(i: number): Uint8Array {
    const cached = this.buffers.get(i);
    if (cached) return cached;
    const b = this.list('buffers')[i]!;
    const declared = b.byteLength;
    if (typeof declared !== 'number' || !Number.isInteger(declared) || declared < 0) this.fail(`buffer ${i}: byteLength missing or invalid`);
    let bytes: Uint8Array;
    const uri = b.uri;
    if (uri === undefined) {
      if (i !== 0 || !this.container.bin) this.fail(`buffer ${i} has no uri and there is no GLB binary chunk for it`);
      bytes = this.container.bin!;
    } else if (typeof uri !== 'string') {
      this.fail(`buffer ${i}: uri is not a string`);
    } else if (uri.startsWith('data:')) {
      const data = decodeDataUri(uri);
      if (!data) this.fail(`buffer ${i}: the data: URI cannot be decoded`);
      bytes = data!;
    } else {
      const found = this.resource(uri);
      if (!found) this.fail(`buffer ${i} '${uri}' was not provided (open it together with the .gltf)`);
      bytes = found!;
    }
    if (bytes!.length < (declared as number)) this.fail(`buffer ${i}${uri ? ` '${String(uri).slice(0, 60)}'` : ''} has ${bytes!.length} bytes, the file declares ${String(declared)}`);
    this.buffers.set(i, bytes!);
    return bytes!;
  }

  private resource(uri: string): Uint8Array | undefined {
    const tries = [uri];
    try { tries.push(decodeURIComponent(uri)); } catch { /* a malformed escape: only the raw uri can match */ }
    for (const t of [...tries]) if (t.startsWith('./')) tries.push(t.slice(2));
    for (const t of tries) {
      const r = this.resources[t];
      if (r) return r;
    }
    return undefined;
  }

  /** The bytes of buffer view `i` and its stride (0 = tightly packed). */
  bufferView(i: number, what: string): { bytes: Uint8Array; byteStride: number } {
    const v = this.list('bufferViews')[this.index(i, 'bufferViews', what)]!;
    const buf = this.buffer(this.index(v.buffer, 'buffers', `bufferView ${i}`));
    const offset = intOr(v.byteOffset, 0), length = intOr(v.byteLength, -1), stride = intOr(v.byteStride, 0);
    if (offset < 0 || length < 0) this.fail(`bufferView ${i}: byteOffset/byteLength missing or invalid`);
    if (offset + length > buf.length) this.fail(`bufferView ${i}: bytes ${offset}–${offset + length} lie outside buffer ${String(v.buffer)} (${buf.length} bytes)`);
    if (stride !== 0 && (stride < 4 || stride > 252 || stride % 4 !== 0)) this.fail(`bufferView ${i}: byteStride ${stride} is not a multiple of 4 in 4–252`);
    return { bytes: buf.subarray(offset, offset + length), byteStride: stride };
  }

  accessor(i: unknown, what: string): AccessorData {
    const index = this.index(i, 'accessors', what);
    const cached = this.accessors.get(index);
    if (cached) return cached;
    const a = this.list('accessors')[index]!;
    const name = `accessor ${index} (${what})`;
    const componentType = a.componentType as number;
    const componentSize = COMPONENT_SIZE[componentType];
    if (!componentSize) this.fail(`${name}: unknown componentType ${String(a.componentType)}`);
    const size = TYPE_COMPONENTS[String(a.type)];
    if (!size) this.fail(`${name}: unknown type ${String(a.type)}`);
    const count = intOr(a.count, -1);
    if (count < 1) this.fail(`${name}: count missing or below 1`);
    // Sizes are checked against the bytes (and a cap) BEFORE anything is allocated: a few-kilobyte file must
    // not be able to declare a count that makes us allocate gigabytes.
    if (count * size! > MAX_ACCESSOR_VALUES) {
      this.fail(`${name}: count ${count} × ${size} components is more than the ${MAX_ACCESSOR_VALUES} numbers Marionette reads from one accessor`);
    }
    const normalized = a.normalized === true;
    let view: { bytes: Uint8Array; byteStride: number } | null = null;
    let stride = 0, offset = 0;
    if (a.bufferView !== undefined) {
      view = this.bufferView(a.bufferView as number, name);
      const elementSize = componentSize! * size!;
      stride = view.byteStride || elementSize;
      offset = intOr(a.byteOffset, 0);
      if (offset < 0) this.fail(`${name}: byteOffset ${String(a.byteOffset)} is invalid`);
      const needed = offset + stride * (count - 1) + elementSize;
      if (needed > view.bytes.length) this.fail(`${name}: needs ${needed} bytes, bufferView ${String(a.bufferView)} has ${view.bytes.length}`);
    }
    const values = new Float64Array(count * size!);
    if (view !== null) readComponents(view.bytes, offset, stride, count, size!, componentType, normalized, values);
    if (a.sparse !== undefined) this.applySparse(a.sparse as Json, name, count, size!, componentType, normalized, values);
    for (let k = 0; k < values.length; k++) if (!Number.isFinite(values[k]!)) this.fail(`${name}: value ${k} is not a finite number`);
    const data: AccessorData = { type: String(a.type), componentType, count, size: size!, values };
    this.accessors.set(index, data);
    return data;
  }

  /**
   * Every accessor's declared size against the cap and its bytes, allocating nothing: run before a display
   * loader (three's GLTFLoader) allocates what each accessor declares.
   */
  checkAccessorSizes(): void {
    this.list('accessors').forEach((a, index) => {
      const name = `accessor ${index}`;
      const componentSize = COMPONENT_SIZE[a.componentType as number];
      if (!componentSize) this.fail(`${name}: unknown componentType ${String(a.componentType)}`);
      const size = TYPE_COMPONENTS[String(a.type)];
      if (!size) this.fail(`${name}: unknown type ${String(a.type)}`);
      const count = intOr(a.count, -1);
      if (count < 1) this.fail(`${name}: count missing or below 1`);
      if (count * size! > MAX_ACCESSOR_VALUES) this.fail(`${name}: count ${count} × ${size} components is more than the ${MAX_ACCESSOR_VALUES} numbers Marionette reads from one accessor`);
      if (a.bufferView !== undefined) {
        const view = this.bufferView(a.bufferView as number, name);
        const elementSize = componentSize! * size!;
        const byteOffset = intOr(a.byteOffset, 0);
        if (byteOffset < 0) this.fail(`${name}: byteOffset ${String(a.byteOffset)} is invalid`);
        const needed = byteOffset + (view.byteStride || elementSize) * (count - 1) + elementSize;
        if (needed > view.bytes.length) this.fail(`${name}: needs ${needed} bytes, bufferView ${String(a.bufferView)} has ${view.bytes.length}`);
      }
      const sparse = a.sparse as Json | undefined;
      if (sparse !== undefined) {
        const n = intOr(sparse.count, -1);
        if (n < 1 || n > count) this.fail(`${name}: sparse count ${String(sparse.count)} is not in 1–${count}`);
      }
    });
  }

  /** Checks an accessor's type and component types; `what` names who uses it. */
  expect(data: AccessorData, index: unknown, what: string, types: string[], componentTypes: number[]): void {
    if (!types.includes(data.type) || !componentTypes.includes(data.componentType)) {
      this.fail(`accessor ${String(index)} (${what}) is ${data.type} ${COMPONENT_NAME[data.componentType]}, expected ${types.join('/')} ${componentTypes.map((c) => COMPONENT_NAME[c]).join('/')}`);
    }
  }

  private applySparse(s: Json, name: string, count: number, size: number, componentType: number, normalized: boolean, values: Float64Array): void {
    const n = intOr(s.count, -1);
    if (n < 1 || n > count) this.fail(`${name}: sparse count ${String(s.count)} is not in 1–${count}`);
    const ind = s.indices as Json | undefined, val = s.values as Json | undefined;
    if (!ind || !val) this.fail(`${name}: sparse without indices or values`);
    const indexType = ind!.componentType as number;
    if (![5121, 5123, 5125].includes(indexType)) this.fail(`${name}: sparse indices componentType ${String(indexType)} is not an unsigned integer type`);
    const iv = this.bufferView(ind!.bufferView as number, `${name} sparse indices`);
    const idx = new Float64Array(n);
    const iOff = intOr(ind!.byteOffset, 0), iSize = COMPONENT_SIZE[indexType]!;
    if (iOff + n * iSize > iv.bytes.length) this.fail(`${name}: sparse indices run past their bufferView`);
    readComponents(iv.bytes, iOff, iSize, n, 1, indexType, false, idx);
    const vv = this.bufferView(val!.bufferView as number, `${name} sparse values`);
    const vOff = intOr(val!.byteOffset, 0), eSize = COMPONENT_SIZE[componentType]! * size;
    if (vOff + n * eSize > vv.bytes.length) this.fail(`${name}: sparse values run past their bufferView`);
    const sv = new Float64Array(n * size);
    readComponents(vv.bytes, vOff, eSize, n, size, componentType, normalized, sv);
    for (let k = 0; k < n; k++) {
      const target = idx[k]!;
      if (target >= count) this.fail(`${name}: sparse index ${target} is out of range (count ${count})`);
      for (let c = 0; c < size; c++) values[target * size + c] = sv[k * size + c]!;
    }
  }
}

function readComponents(bytes: Uint8Array, offset: number, stride: number, count: number, size: number, componentType: number,
  normalized: boolean, out: Float64Array): void {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cs = COMPONENT_SIZE[componentType]!;
  for (let e = 0; e < count; e++) {
    const base = offset + e * stride;
    for (let c = 0; c < size; c++) {
      const p = base + c * cs;
      let v: number;
      switch (componentType) {
        case 5120: v = dv.getInt8(p); if (normalized) v = Math.max(v / 127, -1); break;
        case 5121: v = dv.getUint8(p); if (normalized) v = v / 255; break;
        case 5122: v = dv.getInt16(p, true); if (normalized) v = Math.max(v / 32767, -1); break;
        case 5123: v = dv.getUint16(p, true); if (normalized) v = v / 65535; break;
        case 5125: v = dv.getUint32(p, true); break;
        default: v = dv.getFloat32(p, true);
      }
      out[e * size + c] = v;
    }
  }
}

const intOr = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isInteger(v) ? v : v === undefined ? fallback : -1);

const singular = (key: string): string => ({
  accessors: 'accessor', bufferViews: 'bufferView', buffers: 'buffer', nodes: 'node', meshes: 'mesh', skins: 'skin', scenes: 'scene',
} as Record<string, string>)[key] ?? key;
