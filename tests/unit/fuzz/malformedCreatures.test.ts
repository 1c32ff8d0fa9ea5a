/**
 * Malformed creature files through the editor's loader (renderer/src/creature/loadCreature.ts: the shared
 * glTF reader, the accessor preflight, three's GLTFLoader; FBX header + three's FBXLoader): 0 bytes,
 * truncations, wrong magic, huge declared lengths, cycles, dangling references and seeded byte flips of the
 * shipped creatures. Every case either loads a finite skeleton or is refused with a message that starts with
 * the file name and says why — never a raw TypeError/RangeError — and the loader's memory stays bounded.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadCreature } from '../../../renderer/src/creature/loadCreature';
import { clipsFromGltf, skeletonFromGltf, type SkeletonData } from '../../../shared/document';
import { preflightGltf } from '../../../shared/skeleton/gltfPreflight';
import { rng } from '../../fuzz/core';

/** The editor's loader. A .gltf with an external .bin cannot go through three's display loader under Node
 *  (it fetches the .bin from a blob URL), so for those the data path runs: the skeleton reader, the
 *  preflight that guards the display loader, and the clip reader. */
async function load(file: string, bytes: Uint8Array, resources: Record<string, Uint8Array>): Promise<SkeletonData> {
  if (!file.endsWith('.gltf')) return (await loadCreature(file, bytes, resources)).skeleton;
  if (bytes.byteLength === 0) throw new Error(`${file}: the file is empty`);
  const skeleton = skeletonFromGltf(bytes, file, resources);
  preflightGltf(bytes, file, resources);
  clipsFromGltf(bytes, file, skeleton, resources);
  return skeleton;
}

const glb = new Uint8Array(readFileSync('assets/creatures/armed-mine.glb'));
const gltfText = readFileSync('assets/creatures/armed-mine.gltf', 'utf8');
const bin = new Uint8Array(readFileSync('assets/creatures/armed-mine.bin'));
const fbxText = readFileSync('assets/creatures/humanoid.fbx', 'utf8');
const enc = (s: string) => new TextEncoder().encode(s);

type Case = { name: string; file: string; bytes: Uint8Array; resources?: Record<string, Uint8Array> };

const RAW = /Cannot read propert|Cannot use 'in'|is not a function|is not iterable|Invalid typed array length|Invalid array length|Maximum call stack|undefined \(reading|Offset is outside/;

function gltfVariant(edit: (json: any) => void): Uint8Array { // eslint-disable-line @typescript-eslint/no-explicit-any
  const json = JSON.parse(gltfText);
  edit(json);
  return enc(JSON.stringify(json));
}

function glbWith(edit: (view: DataView, bytes: Uint8Array) => void): Uint8Array {
  const copy = glb.slice();
  edit(new DataView(copy.buffer), copy);
  return copy;
}

/** The GLB with its JSON chunk edited (padded to 4 bytes, lengths rewritten). */
function glbWithJson(edit: (json: any) => void): Uint8Array { // eslint-disable-line @typescript-eslint/no-explicit-any
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  edit(json);
  let text = JSON.stringify(json);
  while (text.length % 4 !== 0) text += ' ';
  const jsonBytes = enc(text);
  const rest = glb.subarray(20 + jsonLength);
  const out = new Uint8Array(20 + jsonBytes.length + rest.length);
  out.set(glb.subarray(0, 20));
  out.set(jsonBytes, 20);
  out.set(rest, 20 + jsonBytes.length);
  const v = new DataView(out.buffer);
  v.setUint32(8, out.length, true);
  v.setUint32(12, jsonBytes.length, true);
  return out;
}

function cases(): Case[] {
  const out: Case[] = [];
  const res = { 'armed-mine.bin': bin };
  for (const [file, bytes, resources] of [['mine.glb', glb, {}], ['mine.gltf', enc(gltfText), res], ['humanoid.fbx', enc(fbxText), {}]] as const) {
    out.push({ name: `${file}: 0 bytes`, file, bytes: new Uint8Array(0), resources });
    for (const f of [0.001, 0.1, 0.5, 0.9, 0.999]) out.push({ name: `${file}: truncated to ${f * 100}%`, file, bytes: bytes.slice(0, Math.floor(bytes.length * f)), resources });
  }
  // Wrong magic.
  out.push({ name: 'glb: wrong magic', file: 'mine.glb', bytes: glbWith((v) => v.setUint32(0, 0x12345678, true)) });
  out.push({ name: 'glb: GLB version 1', file: 'mine.glb', bytes: glbWith((v) => v.setUint32(4, 1, true)) });
  out.push({ name: 'fbx: not FBX', file: 'humanoid.fbx', bytes: enc(`; not an FBX\n${fbxText.slice(40)}`) });
  out.push({ name: 'fbx: binary magic, garbage body', file: 'humanoid.fbx', bytes: new Uint8Array([...enc('Kaydara FBX Binary  \0\x1a\0'), 0x4c, 0x1d, 0, 0, ...new Uint8Array(64).fill(0xff)]) });
  // Huge declared lengths.
  out.push({ name: 'glb: JSON chunk length 0xFFFFFFF0', file: 'mine.glb', bytes: glbWith((v) => v.setUint32(12, 0xfffffff0, true)) });
  out.push({ name: 'glb: total length 4 GiB', file: 'mine.glb', bytes: glbWith((v) => v.setUint32(8, 0xffffffff, true)) });
  out.push({ name: 'gltf: accessor count 1e9', file: 'mine.gltf', bytes: gltfVariant((j) => { j.accessors[0].count = 1e9; }), resources: res });
  out.push({ name: 'gltf: accessor count 1e8 without bufferView', file: 'mine.gltf', bytes: gltfVariant((j) => { j.accessors[1].count = 1e8; delete j.accessors[1].bufferView; }), resources: res });
  out.push({ name: 'gltf: buffer byteLength 2^40', file: 'mine.gltf', bytes: gltfVariant((j) => { j.buffers[0].byteLength = 2 ** 40; }), resources: res });
  out.push({ name: 'gltf: bufferView length 2^31', file: 'mine.gltf', bytes: gltfVariant((j) => { j.bufferViews[0].byteLength = 2 ** 31; }), resources: res });
  out.push({ name: 'fbx binary: node end offset 2^32-1', file: 'humanoid.fbx', bytes: new Uint8Array([...enc('Kaydara FBX Binary  \0\x1a\0'), 0x4c, 0x1d, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 0, 0, 0, 3, ...enc('Foo'), ...new Uint8Array(40)]) });
  // Cycles.
  out.push({ name: 'gltf: node 0 ↔ node 1 children cycle', file: 'mine.gltf', bytes: gltfVariant((j) => { j.nodes[0].children = [...(j.nodes[0].children ?? []), 1]; j.nodes[1].children = [...(j.nodes[1].children ?? []), 0]; }), resources: res });
  out.push({ name: 'gltf: a node its own child', file: 'mine.gltf', bytes: gltfVariant((j) => { j.nodes[1].children = [...(j.nodes[1].children ?? []), 1]; }), resources: res });
  const ids = [...fbxText.matchAll(/C: "OO",(\d+),(\d+)/g)];
  if (ids.length > 0) {
    const [, a, b] = ids[0]!;
    out.push({ name: 'fbx: connection cycle', file: 'humanoid.fbx', bytes: enc(fbxText.replace(/Connections:\s*\{/, (m) => `${m}\n\tC: "OO",${b},${a}`)) });
    out.push({ name: 'fbx: dangling connection', file: 'humanoid.fbx', bytes: enc(fbxText.replace(/Connections:\s*\{/, (m) => `${m}\n\tC: "OO",${a},999999999`)) });
  }
  // Dangling references.
  out.push({ name: 'gltf: skin joint 999', file: 'mine.gltf', bytes: gltfVariant((j) => { j.skins[0].joints[0] = 999; }), resources: res });
  out.push({ name: 'gltf: accessor bufferView 77', file: 'mine.gltf', bytes: gltfVariant((j) => { j.accessors[0].bufferView = 77; }), resources: res });
  out.push({ name: 'gltf: bufferView buffer 7', file: 'mine.gltf', bytes: gltfVariant((j) => { j.bufferViews[0].buffer = 7; }), resources: res });
  out.push({ name: 'gltf: inverseBindMatrices -1', file: 'mine.gltf', bytes: gltfVariant((j) => { j.skins[0].inverseBindMatrices = -1; }), resources: res });
  out.push({ name: 'gltf: missing .bin', file: 'mine.gltf', bytes: enc(gltfText), resources: {} });
  out.push({ name: 'glb: mesh primitive attribute 1e6', file: 'mine.glb', bytes: glbWithJson((j) => { j.meshes[0].primitives[0].attributes.POSITION = 1e6; }) });
  out.push({ name: 'glb: node cycle', file: 'mine.glb', bytes: glbWithJson((j) => { j.nodes[0].children = [...(j.nodes[0].children ?? []), 1]; j.nodes[1].children = [...(j.nodes[1].children ?? []), 0]; }) });
  out.push({ name: 'glb: accessor count 1e8 without bufferView', file: 'mine.glb', bytes: glbWithJson((j) => { j.accessors[1].count = 1e8; delete j.accessors[1].bufferView; }) });
  out.push({ name: 'gltf: mesh primitive attribute 1e6', file: 'mine.gltf', bytes: gltfVariant((j) => { j.meshes[0].primitives[0].attributes.POSITION = 1e6; }), resources: res });
  out.push({ name: 'fbx: Objects section removed', file: 'humanoid.fbx', bytes: enc(fbxText.replace(/\nObjects:\s*\{[\s\S]*?\n\}\n/, '\n')) });
  out.push({ name: 'fbx: Connections section removed', file: 'humanoid.fbx', bytes: enc(fbxText.replace(/\nConnections:\s*\{[\s\S]*?\n\}\n/, '\n')) });
  // Seeded byte flips.
  const r = rng(20261124);
  for (let i = 0; i < 12; i++) {
    for (const [file, source, resources] of [['mine.glb', glb, {}], ['mine.gltf', enc(gltfText), res], ['humanoid.fbx', enc(fbxText), {}]] as const) {
      const copy = source.slice();
      for (let k = 0; k < 1 + Math.floor(r() * 8); k++) copy[Math.floor(r() * copy.length)] = Math.floor(r() * 256);
      out.push({ name: `${file}: byte flips #${i}`, file, bytes: copy, resources });
    }
  }
  return out;
}

describe('malformed creature files', () => {
  const all = cases();

  it('the suite is not vacuous: the unmodified files load', async () => {
    expect(all.length).toBeGreaterThanOrEqual(60);
    for (const [file, bytes, resources] of [['mine.glb', glb, {}], ['mine.gltf', enc(gltfText), { 'armed-mine.bin': bin }], ['humanoid.fbx', enc(fbxText), {}]] as const) {
      const skeleton = await load(file, bytes, resources);
      expect(skeleton.bones.length).toBeGreaterThan(3);
    }
  }, 60_000);

  it('every case is refused with a message naming the file and the reason, or loads finite; memory stays bounded', async () => {
    const outcomes: string[] = [];
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    for (const c of all) {
      const started = performance.now();
      try {
        const skeleton = await load(c.file, c.bytes, c.resources ?? {});
        for (const bone of skeleton.bones) {
          for (const v of [...bone.translation, ...bone.rotation, ...bone.scale]) expect(Number.isFinite(v), `${c.name}: ${bone.name}`).toBe(true);
        }
        outcomes.push(`${c.name}: loaded`);
      } catch (error) {
        expect(error, c.name).toBeInstanceOf(Error);
        const message = (error as Error).message;
        expect(message, c.name).toMatch(new RegExp(`^${c.file.replace('.', '\\.')}: .{8,}`));
        expect(message, c.name).not.toMatch(RAW);
        outcomes.push(`${c.name}: refused`);
      }
      expect(performance.now() - started, `${c.name} took too long`).toBeLessThan(10_000);
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    console.log(`malformed creatures: ${all.length} cases, ${outcomes.filter((o) => o.endsWith('refused')).length} refused, ${outcomes.filter((o) => o.endsWith('loaded')).length} loaded; peak RSS growth ${((peak - rssBefore) / 1048576).toFixed(0)} MiB`);
    expect(peak - rssBefore).toBeLessThan(1024 * 1024 * 1024);
    // (an FBX connection cycle or dangling connection may load: FBXLoader skips what it cannot place; the skeleton is then checked finite)
    for (const name of ['0 bytes', 'wrong magic', 'count 1e9', 'count 1e8', 'children cycle', 'its own child', 'glb: node cycle', 'skin joint 999', 'missing .bin', 'attribute 1e6']) {
      expect(outcomes.filter((o) => o.includes(name)).every((o) => o.endsWith('refused')), name).toBe(true);
    }
  }, 300_000);
});
