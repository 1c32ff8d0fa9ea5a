/** parseSkeleton (the skeleton layer alone), jointOrder, duplicate bone names, the skinned primitives a
 *  Creature carries, and sampleChannel over any key track. */
import { describe, expect, it } from 'vitest';
import { jointOrder, parseCreature, parseSkeleton, sampleChannel } from '../../../shared/skeleton';
import { addChannel, twoBoneRig } from './gltfBuilder';

describe('parseSkeleton', () => {
  it('gives the same skeleton as parseCreature without reading meshes or clips', () => {
    const g = twoBoneRig();
    addChannel(g, 'rotation', 'LINEAR', [0, 1], [0, 0, 0, 1, 0, 0, 0.7071068, 0.7071068]);
    const file = { name: 'rig.gltf', ...g.gltf('data') };
    const whole = parseCreature(file);
    const skeletonOnly = parseSkeleton(file);
    expect(skeletonOnly.skeleton.bones.map((b) => [b.name, b.parent, b.node, b.rest])).toEqual(whole.skeleton.bones.map((b) => [b.name, b.parent, b.node, b.rest]));
    expect(skeletonOnly.skins).toEqual(whole.skins);
    // A mesh that points at a missing accessor and a channel with no sampler break only the full read.
    g.json.meshes[0] = { primitives: [{ attributes: { POSITION: 99 } }] };
    g.json.animations[0]!.channels = [{ sampler: 5, target: { node: 1, path: 'rotation' } }];
    const broken = { name: 'broken.gltf', ...g.gltf('data') };
    expect(() => parseCreature(broken)).toThrow(/^broken\.gltf: /);
    expect(parseSkeleton(broken).skeleton.bones.map((b) => b.name)).toEqual(['a', 'b']);
  });

  it('renames a second bone of the same name with a warning, or refuses the file when asked', () => {
    const g = twoBoneRig();
    g.json.nodes[1]!.name = 'a';
    const file = { name: 'twins.gltf', ...g.gltf('data') };
    const renamed = parseSkeleton(file);
    expect(renamed.skeleton.bones.map((b) => b.name)).toEqual(['a', 'a_2']);
    expect(renamed.warnings).toEqual(['two bones are named "a": node 1 was renamed "a_2"']);
    expect(() => parseSkeleton(file, { duplicateNames: 'refuse' }))
      .toThrow('twins.gltf: two bones are named "a" (nodes 0 and 1; bone names must be unique to rig them)');
  });
});

describe('jointOrder', () => {
  it('lists the first skin\'s joints in its order, then bones only other skins list', () => {
    const g = twoBoneRig();
    // Skin 0 lists b before a; a second skin adds node 3 "c" under b.
    g.json.nodes.push({ name: 'c', translation: [0, 0.5, 0] });
    g.json.nodes[1]!.children = [3];
    g.json.skins = [{ joints: [1, 0] }, { joints: [3] }];
    const s = parseSkeleton({ name: 'order.gltf', ...g.gltf('data') });
    expect(s.skeleton.bones.map((b) => b.name)).toEqual(['a', 'b', 'c']); // parents first
    expect(jointOrder(s).map((i) => s.skeleton.bones[i]!.name)).toEqual(['b', 'a', 'c']);
  });
});

describe('Creature.skinnedPrimitives', () => {
  it('holds the vertices at the rest pose (the skin formula; the skinned mesh node\'s own transform ignored, as glTF says) and JOINTS_0 / WEIGHTS_0 as numbers', () => {
    const g = twoBoneRig();
    g.json.nodes[2]!.translation = [0, 0, 3]; // the mesh node 3 m along +Z: ignored for a skinned mesh
    const c = parseCreature({ name: 'moved.glb', bytes: g.glb() });
    expect(c.skinnedPrimitives).toHaveLength(1);
    const p = c.skinnedPrimitives[0]!;
    expect(p).toMatchObject({ node: 2, mesh: 0, primitive: 0, skin: 0 });
    const f = (x: number) => Math.fround(x);
    expect(p.positions).toEqual([f(-0.1), 1, 0, f(0.1), 1, 0, 0, 2.5, 0]);
    expect(p.joints).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]);
    expect(p.weights).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 0.75, 0.25, 0, 0]);
  });

  it('moves the vertices with their bones when the rest pose differs from the bind pose', () => {
    const g = twoBoneRig();
    g.json.nodes[0]!.translation = [0.5, 1, 0]; // bone a rests 0.5 m along +X from where it was bound
    const p = parseCreature({ name: 'rest.glb', bytes: g.glb() }).skinnedPrimitives[0]!;
    // Vertices 0 and 1 follow a alone; vertex 2 follows a (and b, its child) with all its weight.
    expect(p.positions[0]).toBeCloseTo(0.4, 6);
    expect(p.positions[3]).toBeCloseTo(0.6, 6);
    expect(p.positions[6]).toBeCloseTo(0.5, 6);
    expect(p.positions[7]).toBeCloseTo(2.5, 6);
  });

  it('gives a rigid (unskinned) mesh under a bone to that bone', () => {
    const g = twoBoneRig();
    const pos = g.accessor(new Float32Array([0, 0, 0, 0.1, 0, 0, 0, 0.1, 0]), 'VEC3', { min: [0, 0, 0], max: [0.1, 0.1, 0] });
    g.json.meshes.push({ primitives: [{ attributes: { POSITION: pos } }] });
    g.json.nodes.push({ name: 'plate', mesh: 1, translation: [0, 0.2, 0] });
    g.json.nodes[1]!.children = [3];
    const c = parseCreature({ name: 'rigid.glb', bytes: g.glb() });
    expect(c.rigidParts).toHaveLength(1);
    expect(c.rigidParts[0]!.bone).toBe(c.skeleton.bones.findIndex((b) => b.name === 'b'));
    expect(c.rigidParts[0]!.positions.slice(0, 3)).toEqual([0, 2.2, 0]);
  });
});

describe('sampleChannel over any key track', () => {
  const times = [0, 1, 3];
  const values = [0, 0, 0, 2, 4, 6, 2, 0, 0];
  it('gives the same values for typed arrays as for plain arrays', () => {
    const plain = { path: 'translation', interpolation: 'LINEAR', times, values } as const;
    const typed = { ...plain, times: Float32Array.from(times), values: Float64Array.from(values) };
    for (const t of [-1, 0, 0.25, 1, 2, 3, 4]) expect(sampleChannel(typed, t)).toEqual(sampleChannel(plain, t));
    expect(sampleChannel(plain, 0.25)).toEqual([0.5, 1, 1.5]);
    expect(sampleChannel(plain, 2)).toEqual([2, 2, 3]);
  });

  it('normalises every rotation it returns and refuses a track without keys', () => {
    const rot = { path: 'rotation', interpolation: 'LINEAR', times: [0, 1], values: [0, 0, 0, 2, 0, 0, 2, 0] } as const;
    for (const t of [0, 0.5, 1]) expect(Math.hypot(...sampleChannel(rot, t))).toBeCloseTo(1, 12);
    expect(() => sampleChannel({ ...rot, times: [], values: [] }, 0)).toThrow('a rotation channel has no keys');
  });
});
