import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CreatureLoadError, parseCreature, type CreatureSource } from '../../../shared/skeleton';
import { addChannel, makeGlb, twoBoneRig, type GltfBuilder } from './gltfBuilder';

const mineGlb = new Uint8Array(readFileSync(join(__dirname, '../../../assets/creatures/armed-mine.glb')));
const text = (s: string) => new TextEncoder().encode(s);
/** The two-bone rig, changed by `edit`, as an external-buffer .gltf named `name`. */
const rig = (name: string, edit: (g: GltfBuilder) => void, uri = 'rig.bin'): CreatureSource => {
  const g = twoBoneRig();
  edit(g);
  return { name, ...g.gltf(uri) };
};
const withView = (bytes: Uint8Array, edit: (dv: DataView) => void) => {
  const copy = bytes.slice();
  edit(new DataView(copy.buffer));
  return copy;
};

const cases: Array<[string, () => CreatureSource, RegExp]> = [
  ['not a GLB', () => ({ name: 'broken.glb', bytes: text('hello world, not a model') }), /^broken\.glb: not a glTF binary \(bad magic 0x6c6c6568\)$/],
  ['empty file', () => ({ name: 'empty.glb', bytes: new Uint8Array(0) }), /^empty\.glb: the file is empty$/],
  ['truncated GLB', () => ({ name: 'cut.glb', bytes: mineGlb.slice(0, 1000) }), /^cut\.glb: truncated glTF binary: header says \d+ bytes, the file has 1000$/],
  ['GLB version 1', () => ({ name: 'old.glb', bytes: withView(mineGlb, (dv) => dv.setUint32(4, 1, true)) }), /^old\.glb: glTF binary version 1 is not supported \(Marionette reads glTF 2\.0\)$/],
  ['chunk longer than the file', () => {
    const jsonLength = new DataView(mineGlb.buffer, mineGlb.byteOffset).getUint32(12, true);
    return { name: 'chunk.glb', bytes: withView(mineGlb, (dv) => dv.setUint32(20 + jsonLength, 10_000_000, true)) };
  }, /^chunk\.glb: truncated chunk 1 \("BIN"\): needs 10000000 bytes at byte \d+, the file ends at \d+$/],
  ['first chunk not JSON', () => ({ name: 'order.glb', bytes: withView(mineGlb, (dv) => dv.setUint32(16, 0x004e4942, true)) }), /^order\.glb: the first chunk must be JSON, found "BIN"$/],
  ['JSON syntax error', () => ({ name: 'x.gltf', bytes: text('{\n  "asset": {"version": "2.0"},\n}') }), /^x\.gltf: JSON parse error at line 3, column 1: /],
  ['JSON cut short', () => ({ name: 'short.gltf', bytes: text('{"asset": {"vers') }), /^short\.gltf: JSON parse error at (the end of the text|line 1, column 1[67]): /],
  ['binary garbage as .gltf', () => ({ name: 'noise.gltf', bytes: new Uint8Array([0xff, 0xfe, 0x00, 0x81]) }), /^noise\.gltf: not a glTF file/],
  ['glTF 1.0', () => ({ name: 'v1.gltf', bytes: text('{"asset": {"version": "1.0"}, "nodes": {}}') }), /^v1\.gltf: glTF version 1\.0 is not supported \(Marionette reads glTF 2\.0\)$/],
  ['no asset', () => ({ name: 'bare.gltf', bytes: text('{"nodes": []}') }), /^bare\.gltf: no "asset" object: not a glTF 2\.0 file$/],
  ['no skin', () => rig('static.gltf', (g) => { g.json.skins = []; delete g.json.nodes[2]!.skin; }), /^static\.gltf: no skin — Marionette needs a rigged creature/],
  ['external buffer not provided', () => {
    const g = twoBoneRig();
    return { name: 'x.gltf', bytes: g.gltf('x.bin').bytes, resources: {} };
  }, /^x\.gltf: buffer 0 'x\.bin' was not provided/],
  ['external buffer too short', () => {
    const g = twoBoneRig();
    const { bytes, resources } = g.gltf('x.bin');
    return { name: 'x.gltf', bytes, resources: { 'x.bin': resources['x.bin']!.slice(0, 10) } };
  }, /^x\.gltf: buffer 0 'x\.bin' has 10 bytes, the file declares \d+$/],
  ['bad data: URI', () => {
    const g = twoBoneRig();
    const json = JSON.parse(new TextDecoder().decode(g.gltf('data').bytes));
    json.buffers[0].uri = 'data:application/octet-stream;base64,@@@@';
    return { name: 'd.gltf', bytes: text(JSON.stringify(json)) };
  }, /^d\.gltf: buffer 0: the data: URI cannot be decoded$/],
  ['missing accessor', () => rig('ibm.gltf', (g) => { g.json.skins[0]!.inverseBindMatrices = 99; }), /^ibm\.gltf: skin 0 inverseBindMatrices refers to accessor 99, but the file has \d+ \(0–\d+\)$/],
  ['accessor past its bufferView', () => rig('acc.gltf', (g) => { g.json.accessors[1]!.count = 50; }), /^acc\.gltf: accessor 1 \(mesh 0 primitive 0 POSITION\): needs 600 bytes, bufferView 1 has 36$/],
  ['bufferView past its buffer', () => rig('view.gltf', (g) => { g.json.bufferViews[0]!.byteOffset = 100_000; }), /^view\.gltf: bufferView 0: bytes 100000–100128 lie outside buffer 0 \(\d+ bytes\)$/],
  ['child index out of range', () => rig('kids.gltf', (g) => { g.json.nodes[0]!.children = [7]; }), /^kids\.gltf: node 0 children refers to node 7, but the file has 3 \(0–2\)$/],
  ['node with two parents', () => rig('two.gltf', (g) => { g.json.nodes[2]!.children = [1]; }), /^two\.gltf: node 1 is a child of both node 0 and node 2$/],
  ['cycle in the hierarchy', () => rig('cycle.gltf', (g) => { g.json.nodes[1]!.children = [0]; (g.json.scenes as Array<{ nodes: number[] }>)[0]!.nodes = [2]; }), /^cycle\.gltf: the node hierarchy has a cycle through node 0$/],
  ['joint index out of range', () => rig('joint.gltf', (g) => {
    g.json.meshes[0]!.primitives = [{ attributes: { POSITION: 1, JOINTS_0: g.accessor(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0]), 'VEC4'), WEIGHTS_0: 3 } }];
  }), /^joint\.gltf: mesh 0 primitive 0: vertex 2 refers to joint 5, skin 0 has 2$/],
  ['vertex index out of range', () => rig('idx.gltf', (g) => {
    (g.json.meshes[0]!.primitives as Array<Record<string, unknown>>)[0]!.indices = g.accessor(new Uint16Array([0, 1, 9, 0]), 'SCALAR', { count: 3 });
  }), /^idx\.gltf: mesh 0 primitive 0: index 9 is out of range \(3 vertices\)$/],
  ['inverse bind matrices of the wrong type', () => rig('type.gltf', (g) => { g.json.accessors[0]!.type = 'VEC4'; }), /^type\.gltf: accessor 0 \(skin 0 inverseBindMatrices\) is VEC4 FLOAT, expected MAT4 FLOAT$/],
  ['Draco-compressed', () => rig('draco.gltf', (g) => { g.json.extensionsRequired = ['KHR_draco_mesh_compression']; }), /^draco\.gltf: requires the extension KHR_draco_mesh_compression, which Marionette cannot read/],
  ['key times going backwards', () => rig('anim.gltf', (g) => addChannel(g, 'translation', 'LINEAR', [0, 2, 1], [0, 1, 0, 1, 1, 0, 2, 1, 0])), /^anim\.gltf: animation 0 \(translation-LINEAR\) channel 0: key times decrease at key 2 \(2 → 1\)$/],
  ['too few output values', () => rig('keys.gltf', (g) => addChannel(g, 'translation', 'CUBICSPLINE', [0, 1], [0, 1, 0, 1, 1, 0])), /^keys\.gltf: animation 0 \(translation-CUBICSPLINE\) channel 0: 2 output values for 2 key times \(CUBICSPLINE needs 6\)$/],
  ['FBX', () => ({ name: 'creature.fbx', bytes: text('Kaydara FBX Binary  \0') }), /^creature\.fbx: FBX is not read by the skeleton reader/],
  ['rotation not a unit quaternion', () => rig('rot.gltf', (g) => { g.json.nodes[0]!.rotation = [0, 0, 0, 2]; }), /^rot\.gltf: node 0 rotation is not a unit quaternion \(length 2\.0000\)$/],
];

describe('broken creature files are refused with the file name and the reason', () => {
  it.each(cases)('%s', (_label, make, expected) => {
    const source = make();
    let error: unknown;
    try { parseCreature(source); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(CreatureLoadError);
    expect((error as CreatureLoadError).message).toMatch(expected);
    expect((error as CreatureLoadError).fileName).toBe(source.name);
  });

  it('the unbroken two-bone rig parses (so each case above fails for its own reason)', () => {
    const c = parseCreature({ name: 'rig.gltf', ...twoBoneRig().gltf('rig.bin') });
    expect(c.skeleton.bones.map((b) => b.name)).toEqual(['a', 'b']);
    expect(c.boneVertices.map((v) => v.count)).toEqual([2, 1]);
    // Vertex 2 is skinned 0.75 to b and 0.25 to a, both at rest: it stays at (0, 2.5, 0), 0.5 m up b.
    expect(c.boneVertices[1]!.axialMax).toBeCloseTo(0.5, 6);
    const glb = parseCreature({ name: 'rig.glb', bytes: twoBoneRig().glb() });
    expect(glb.skeleton).toEqual(c.skeleton);
  });
});

describe('files on disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'marionette-skeleton-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a .gltf written next to its .bin reads back through its relative URI; a GLB without BIN chunk is refused', () => {
    const g = twoBoneRig();
    const { bytes, resources } = g.gltf('./buffers/rig%20data.bin');
    writeFileSync(join(dir, 'rig.gltf'), bytes);
    writeFileSync(join(dir, 'rig data.bin'), resources['./buffers/rig%20data.bin']!);
    // The caller (platform) resolves the URI to a file and keys the bytes by the URI as written.
    const c = parseCreature({ name: 'rig.gltf', bytes: new Uint8Array(readFileSync(join(dir, 'rig.gltf'))), resources: { 'buffers/rig data.bin': new Uint8Array(readFileSync(join(dir, 'rig data.bin'))) } });
    expect(c.skeleton.bones).toHaveLength(2);

    const json = JSON.parse(new TextDecoder().decode(bytes));
    json.buffers = [{ byteLength: 64 }];
    writeFileSync(join(dir, 'nobin.glb'), makeGlb(JSON.stringify(json), null));
    expect(() => parseCreature({ name: 'nobin.glb', bytes: new Uint8Array(readFileSync(join(dir, 'nobin.glb'))) }))
      .toThrow(/^nobin\.glb: buffer 0 has no uri and there is no GLB binary chunk for it$/);
  });
});
