import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rigBonesOf, skeletonFromGltf } from '../../../shared/document';
import { quatRotate, add, type Vec3 } from '../../../shared/math';

const asset = (name: string) => new Uint8Array(readFileSync(fileURLToPath(new URL(`../../../assets/creatures/${name}`, import.meta.url))));
const text = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));

/** World position of each bone at rest: p_child = p_parent + R_parent · t_child (scale 1 in these files). */
function restWorld(bones: ReturnType<typeof skeletonFromGltf>['bones']): Vec3[] {
  const pos: Vec3[] = [];
  const rot: [number, number, number, number][] = [];
  bones.forEach((b, i) => {
    if (b.parent < 0) { pos[i] = b.translation; rot[i] = b.rotation; return; }
    expect(b.parent).toBeLessThan(i);
    pos[i] = add(pos[b.parent]!, quatRotate(rot[b.parent]!, b.translation));
    const [x, y, z, w] = rot[b.parent]!; const [bx, by, bz, bw] = b.rotation;
    rot[i] = [w * bx + x * bw + y * bz - z * by, w * by - x * bz + y * bw + z * bx, w * bz + x * by - y * bx + z * bw, w * bw - x * bx - y * by - z * bz];
  });
  return pos;
}

describe('skeletonFromGltf', () => {
  it('reads the Armed Mine chain body → upper_arm → forearm → hand from the .glb and the .gltf alike', () => {
    const glb = skeletonFromGltf(asset('armed-mine.glb'), 'armed-mine.glb');
    expect(glb.bones.map((b) => [b.name, b.parent])).toEqual([['body', -1], ['upper_arm', 0], ['forearm', 1], ['hand', 2]]);
    expect(skeletonFromGltf(asset('armed-mine.gltf'), 'armed-mine.gltf', { 'armed-mine.bin': asset('armed-mine.bin') })).toEqual(glb);
    // The arm's bones have real lengths: each child sits some centimetres from its parent.
    for (const b of glb.bones.slice(1)) expect(Math.hypot(...b.translation)).toBeGreaterThan(0.05);
    for (const b of glb.bones) expect(Math.hypot(...b.rotation)).toBeCloseTo(1, 6);
  });

  it('reads the humanoid with its 13 main bones, left and right mirrored across x = 0', () => {
    const s = skeletonFromGltf(asset('humanoid.glb'), 'humanoid.glb');
    const names = s.bones.map((b) => b.name);
    for (const n of ['pelvis', 'spine', 'head', 'upper_arm_l', 'upper_arm_r', 'forearm_l', 'forearm_r', 'thigh_l', 'thigh_r', 'shin_l', 'shin_r', 'foot_l', 'foot_r']) expect(names).toContain(n);
    const world = restWorld(s.bones);
    const at = (n: string) => world[names.indexOf(n)]!;
    for (const side of ['upper_arm', 'thigh', 'foot']) {
      const l = at(`${side}_l`), r = at(`${side}_r`);
      expect(l[0]).toBeCloseTo(-r[0], 4);
      expect(l[1]).toBeCloseTo(r[1], 4);
      expect(Math.abs(l[0])).toBeGreaterThan(0.05);
    }
    expect(at('head')[1]).toBeGreaterThan(at('pelvis')[1]);
    expect(at('foot_l')[1]).toBeLessThan(at('pelvis')[1]);
  });

  it('gives the rig-format bones with parents by name', () => {
    const bones = rigBonesOf(skeletonFromGltf(asset('armed-mine.glb'), 'armed-mine.glb'));
    expect(bones.map((b) => b.parent)).toEqual([null, 'body', 'upper_arm', 'forearm']);
  });

  it('gives exactly the skeleton the shipped rig files store, so opening one with its creature changes no bone', () => {
    for (const name of ['humanoid', 'armed-mine']) {
      const rig = JSON.parse(new TextDecoder().decode(asset(`${name}.rig.json`))) as { skeleton: { bones: unknown[] } };
      expect(rigBonesOf(skeletonFromGltf(asset(`${name}.glb`), `${name}.glb`)), name).toEqual(rig.skeleton.bones);
    }
  });

  it('skips non-joint helper nodes between joints when finding a parent', () => {
    const s = skeletonFromGltf(text({
      asset: { version: '2.0' },
      nodes: [{ name: 'root', children: [1] }, { name: 'helper', children: [2] }, { name: 'tip', translation: [0, 1, 0] }],
      skins: [{ joints: [0, 2] }],
    }), 'helper.gltf');
    expect(s.bones.map((b) => [b.name, b.parent, b.node])).toEqual([['root', -1, 0], ['tip', 0, 2]]);
  });

  it('refuses files it cannot rig with a message naming the file and the reason', () => {
    expect(() => skeletonFromGltf(text({ asset: { version: '2.0' }, nodes: [{}] }), 'static.gltf')).toThrow('static.gltf: no skin');
    expect(() => skeletonFromGltf(new TextEncoder().encode('{ nope'), 'bad.gltf')).toThrow(/^bad\.gltf: JSON parse error at line 1, column 3/);
    expect(() => skeletonFromGltf(text({ asset: { version: '1.0' } }), 'old.gltf')).toThrow('old.gltf: glTF version 1.0 is not supported (Marionette reads glTF 2.0)');
    expect(() => skeletonFromGltf(text({ asset: { version: '2.0' }, nodes: [{ name: 'a' }, { name: 'a' }], skins: [{ joints: [0, 1] }] }), 'twins.gltf'))
      .toThrow('twins.gltf: two bones are named "a" (nodes 0 and 1; bone names must be unique to rig them)');
    expect(() => skeletonFromGltf(text({ asset: { version: '2.0' }, nodes: [{ name: 'a', rotation: [0, 0, 1] }], skins: [{ joints: [0] }] }), 'short.gltf'))
      .toThrow('short.gltf: node 0 rotation must be 4 finite numbers');
    expect(() => skeletonFromGltf(text({ asset: { version: '2.0' }, nodes: [], skins: [{ joints: [3] }] }), 'gone.gltf')).toThrow('gone.gltf: skin 0 joint 0 refers to node 3, but the file has none');
    const truncated = asset('armed-mine.glb').slice(0, 64);
    expect(() => skeletonFromGltf(truncated, 'cut.glb')).toThrow(/^cut\.glb: truncated glTF binary: header says \d+ bytes, the file has 64$/);
    // A .gltf needs the buffer holding its inverse bind matrices, and says which file is missing.
    expect(() => skeletonFromGltf(asset('armed-mine.gltf'), 'lonely.gltf')).toThrow("lonely.gltf: buffer 0 'armed-mine.bin' was not provided");
  });

  it('reads only the skeleton: a broken clip or mesh does not stop it', () => {
    const gltf = JSON.parse(new TextDecoder().decode(asset('armed-mine.gltf'))) as { meshes: { primitives: { attributes: Record<string, number> }[] }[]; animations: unknown[] };
    gltf.meshes[0]!.primitives[0]!.attributes.POSITION = 999;
    gltf.animations = [{ name: 'broken', samplers: [], channels: [{ sampler: 0, target: { node: 0, path: 'rotation' } }] }];
    const s = skeletonFromGltf(text(gltf), 'armed-mine.gltf', { 'armed-mine.bin': asset('armed-mine.bin') });
    expect(s.bones.map((b) => b.name)).toEqual(['body', 'upper_arm', 'forearm', 'hand']);
  });
});
