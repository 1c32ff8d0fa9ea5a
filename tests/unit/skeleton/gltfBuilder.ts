/** Small glTF files built in memory for tests: a two-bone rig (root "a" at y = 1, child "b" 1 m above
 *  it) skinned to a triangle, with optional animation samplers, written as .gltf with a data: URI or an
 *  external buffer, or as .glb. */

export type JsonObject = Record<string, unknown> & {
  buffers: Array<Record<string, unknown>>; bufferViews: Array<Record<string, unknown>>; accessors: Array<Record<string, unknown>>;
  nodes: Array<Record<string, unknown>>; skins: Array<Record<string, unknown>>; meshes: Array<Record<string, unknown>>;
  animations: Array<Record<string, unknown>>; asset: Record<string, unknown>;
};

export class GltfBuilder {
  private chunks: Uint8Array[] = [];
  private length = 0;
  readonly json: JsonObject = {
    asset: { version: '2.0' }, buffers: [], bufferViews: [], accessors: [], nodes: [], skins: [], meshes: [], animations: [],
    scenes: [{ nodes: [] }], scene: 0,
  };

  /** Appends `data` (4-byte aligned) and returns the new accessor's index. */
  accessor(data: Float32Array | Uint8Array | Uint16Array, type: string, extra: Record<string, unknown> = {}): number {
    const pad = (4 - (this.length % 4)) % 4;
    if (pad) { this.chunks.push(new Uint8Array(pad)); this.length += pad; }
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.json.bufferViews.push({ buffer: 0, byteOffset: this.length, byteLength: bytes.length });
    this.chunks.push(bytes.slice());
    this.length += bytes.length;
    const componentType = data instanceof Float32Array ? 5126 : data instanceof Uint8Array ? 5121 : 5123;
    const size = { SCALAR: 1, VEC3: 3, VEC4: 4, MAT4: 16 }[type]!;
    this.json.accessors.push({ bufferView: this.json.bufferViews.length - 1, componentType, count: data.length / size, type, ...extra });
    return this.json.accessors.length - 1;
  }

  bin(): Uint8Array {
    const out = new Uint8Array(Math.ceil(this.length / 4) * 4);
    let o = 0;
    for (const c of this.chunks) { out.set(c, o); o += c.length; }
    return out;
  }

  /** .gltf JSON with the buffer as an external file `uri` (returned in resources) or a data: URI. */
  gltf(uri: string | 'data'): { bytes: Uint8Array; resources: Record<string, Uint8Array> } {
    const bin = this.bin();
    const json = structuredClone(this.json);
    json.buffers = [{ byteLength: bin.length, uri: uri === 'data' ? `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}` : uri }];
    return { bytes: new TextEncoder().encode(JSON.stringify(json)), resources: uri === 'data' ? {} : { [uri]: bin } };
  }

  glb(): Uint8Array {
    const bin = this.bin();
    const json = structuredClone(this.json);
    json.buffers = [{ byteLength: bin.length }];
    return makeGlb(JSON.stringify(json), bin);
  }
}

export function makeGlb(jsonText: string, bin: Uint8Array | null): Uint8Array {
  let jsonBytes = new TextEncoder().encode(jsonText);
  const jpad = (4 - (jsonBytes.length % 4)) % 4;
  jsonBytes = Uint8Array.from([...jsonBytes, ...new Array<number>(jpad).fill(0x20)]);
  const total = 12 + 8 + jsonBytes.length + (bin ? 8 + bin.length : 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true); dv.setUint32(4, 2, true); dv.setUint32(8, total, true);
  dv.setUint32(12, jsonBytes.length, true); dv.setUint32(16, 0x4e4f534a, true);
  out.set(jsonBytes, 20);
  if (bin) {
    const o = 20 + jsonBytes.length;
    dv.setUint32(o, bin.length, true); dv.setUint32(o + 4, 0x004e4942, true);
    out.set(bin, o + 8);
  }
  return out;
}

/** The two-bone rig: a at (0,1,0), b at (0,2,0); a triangle whose vertices 0,1 belong to a and 2 to b. */
export function twoBoneRig(): GltfBuilder {
  const g = new GltfBuilder();
  g.json.nodes.push({ name: 'a', translation: [0, 1, 0], children: [1] }, { name: 'b', translation: [0, 1, 0] }, { name: 'mesh', mesh: 0, skin: 0 });
  (g.json.scenes as Array<{ nodes: number[] }>)[0]!.nodes.push(0, 2);
  const ibm = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1]);
  g.json.skins.push({ joints: [0, 1], inverseBindMatrices: g.accessor(ibm, 'MAT4') });
  const pos = g.accessor(new Float32Array([-0.1, 1, 0, 0.1, 1, 0, 0, 2.5, 0]), 'VEC3', { min: [-0.1, 1, 0], max: [0.1, 2.5, 0] });
  const joints = g.accessor(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]), 'VEC4');
  const weights = g.accessor(new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 0.75, 0.25, 0, 0]), 'VEC4');
  g.json.meshes.push({ primitives: [{ attributes: { POSITION: pos, JOINTS_0: joints, WEIGHTS_0: weights } }] });
  return g;
}

/** Adds an animation with one channel on node `node`. */
export function addChannel(g: GltfBuilder, path: 'rotation' | 'translation', interpolation: string, times: number[], values: number[], node = 1): void {
  const input = g.accessor(new Float32Array(times), 'SCALAR', { min: [times[0]], max: [times[times.length - 1]] });
  const output = g.accessor(new Float32Array(values), path === 'rotation' ? 'VEC4' : 'VEC3');
  g.json.animations.push({
    name: `${path}-${interpolation}`,
    samplers: [{ input, output, interpolation }],
    channels: [{ sampler: 0, target: { node, path } }],
  });
}
