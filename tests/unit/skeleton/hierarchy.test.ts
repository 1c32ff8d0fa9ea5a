import { describe, expect, it } from 'vitest';
import { quatFromAxisAngle, quatRotate } from '../../../shared/math';
import { parseCreature, poseToWorld, restPose, sampleClip } from '../../../shared/skeleton';
import { addChannel, twoBoneRig } from './gltfBuilder';

const near = (a: readonly number[], b: readonly number[], tol = 1e-6) =>
  a.forEach((x, i) => expect(Math.abs(x - b[i]!), `${a.join(',')} vs ${b.join(',')}`).toBeLessThan(tol));

describe('non-joint nodes above the skeleton (an exporter\'s "Armature" node)', () => {
  const g = twoBoneRig();
  const turn = quatFromAxisAngle([0, 1, 0], Math.PI / 2);
  // Node 3 = Armature: 1 m along +X, turned 90° about Y, scaled ×2; it parents bone a.
  g.json.nodes.push({ name: 'Armature', translation: [1, 0, 0], rotation: turn, scale: [2, 2, 2], children: [0] });
  (g.json.scenes as Array<{ nodes: number[] }>)[0]!.nodes = [3, 2];
  addChannel(g, 'translation', 'LINEAR', [0, 1], [0, 1, 0, 0, 2, 0], 0);
  const c = parseCreature({ name: 'armature.gltf', ...g.gltf('data') });
  const [a, b] = c.skeleton.bones;

  it('puts the Armature transform in the root bone\'s parentOffset and in the world transforms', () => {
    near(a!.rest.local.translation, [0, 1, 0]);
    near(a!.rest.parentOffset.translation, [1, 0, 0]);
    near(a!.rest.parentOffset.scale, [2, 2, 2]);
    near(a!.rest.world.translation, [1, 2, 0]);
    near(b!.rest.world.translation, [1, 4, 0]);
    near(b!.rest.parentOffset.translation, [0, 0, 0]);
    near(quatRotate(b!.rest.world.rotation, [1, 0, 0]), [0, 0, -1]);
  });

  it('poseToWorld(restPose) reproduces the rest world; a clip on the root moves through the offset', () => {
    const world = poseToWorld(c.skeleton, restPose(c.skeleton));
    world.forEach((w, i) => near(w.translation, c.skeleton.bones[i]!.rest.world.translation));
    // Root local y 1 → 2 is 2 m in world (Armature scale 2).
    near(poseToWorld(c.skeleton, sampleClip(c.skeleton, c.clips[0]!, 1))[1]!.translation, [1, 6, 0]);
  });

  it('measures owned vertices in metres in the bone frame (scale removed)', () => {
    // Vertex 2 was 0.5 m above b in the unscaled rig; skinned under the ×2 Armature it is 1 m above.
    expect(c.boneVertices[1]!.axialMax).toBeCloseTo(1, 5);
    expect(b!.tail.source).toBe('vertices');
    expect(a!.tail).toMatchObject({ source: 'child', child: 1 });
    expect(a!.tail.length).toBeCloseTo(2, 6);
  });
});

describe('node details', () => {
  it('reads a node matrix as TRS and renames duplicate bone names with a warning', () => {
    const g = twoBoneRig();
    delete g.json.nodes[1]!.translation;
    g.json.nodes[1]!.matrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1];
    g.json.nodes[1]!.name = 'a';
    const c = parseCreature({ name: 'dup.glb', bytes: g.glb() });
    expect(c.skeleton.bones.map((b) => b.name)).toEqual(['a', 'a_2']);
    expect(c.warnings[0]).toMatch(/two bones are named "a": node 1 was renamed "a_2"/);
    near(c.skeleton.bones[1]!.rest.world.translation, [0, 2, 0]);
  });

  it('ignores channels on morph weights and non-bone nodes, and says so', () => {
    const g = twoBoneRig();
    addChannel(g, 'translation', 'LINEAR', [0, 1], [0, 0, 0, 1, 0, 0], 2);
    const c = parseCreature({ name: 'w.gltf', ...g.gltf('data') });
    expect(c.clips[0]!.channels).toHaveLength(0);
    expect(c.warnings.join('\n')).toMatch(/clip translation-LINEAR: 1 channel\(s\) on morph weights or non-bone nodes ignored/);
  });
});
