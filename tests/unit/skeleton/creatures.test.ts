import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mat4FromTRS, mat4Mul, quatRotate, type Vec3 } from '../../../shared/math';
import { boneIndex, parseCreature, poseToWorld, restPose, type Creature } from '../../../shared/skeleton';

const dir = join(__dirname, '../../../assets/creatures');
const load = (name: string): Creature => parseCreature({ name, bytes: new Uint8Array(readFileSync(join(dir, name))) });
const near = (a: readonly number[], b: readonly number[], tol = 1e-5) => {
  expect(a.length).toBe(b.length);
  a.forEach((x, i) => expect(Math.abs(x - b[i]!), `component ${i}: ${a.join(',')} vs ${b.join(',')}`).toBeLessThan(tol));
};
const deg = (d: number) => (d * Math.PI) / 180;

describe('Armed Mine', () => {
  const mine = load('armed-mine.glb');
  const bones = mine.skeleton.bones;

  it('has the four bones body → upper_arm → forearm → hand', () => {
    expect(bones.map((b) => b.name)).toEqual(['body', 'upper_arm', 'forearm', 'hand']);
    expect(bones.map((b) => b.parent)).toEqual([-1, 0, 1, 2]);
    expect(mine.skeleton.roots).toEqual([0]);
    expect(mine.skins).toHaveLength(1);
    expect(mine.skins[0]!.joints).toEqual([0, 1, 2, 3]);
  });

  it('rests on the floor with the arm on the upper front (world rest positions, m)', () => {
    const shoulder: Vec3 = [0, 0.35 + 0.36 * Math.sin(deg(40)), 0.36 * Math.cos(deg(40))];
    const elbow: Vec3 = [0, shoulder[1] + 0.45 * Math.sin(deg(20)), shoulder[2] + 0.45 * Math.cos(deg(20))];
    const wrist: Vec3 = [0, elbow[1] - 0.4 * Math.sin(deg(50)), elbow[2] + 0.4 * Math.cos(deg(50))];
    near(bones[0]!.rest.world.translation, [0, 0.35, 0]);
    near(bones[1]!.rest.world.translation, shoulder);
    near(bones[2]!.rest.world.translation, elbow);
    near(bones[3]!.rest.world.translation, wrist);
    // Arm bones: local +Y along the bone, local +X = world +X (the elbow/wrist hinge axis).
    for (const [i, dir] of [[1, [0, Math.sin(deg(20)), Math.cos(deg(20))]], [2, [0, -Math.sin(deg(50)), Math.cos(deg(50))]]] as const) {
      near(quatRotate(bones[i]!.rest.world.rotation, [0, 1, 0]), dir);
      near(quatRotate(bones[i]!.rest.world.rotation, [1, 0, 0]), [1, 0, 0]);
    }
    expect(bones[1]!.tail.length).toBeCloseTo(0.45, 5);
    expect(bones[2]!.tail.length).toBeCloseTo(0.4, 5);
  });

  it('owns vertices per bone: a 0.35 m shell for the body, slim arm segments', () => {
    const [body, upper, fore, hand] = mine.boneVertices;
    expect(mine.mesh.vertexCount).toBeGreaterThan(1000);
    expect(mine.mesh.vertexCount).toBeLessThan(8000);
    expect(mine.mesh.skinnedVertexCount).toBe(mine.mesh.vertexCount);
    expect(body!.count + upper!.count + fore!.count + hand!.count).toBe(mine.mesh.vertexCount);
    // The shell sits on the floor: its lowest point is one radius below the centre.
    expect(body!.boundsMin[1]).toBeCloseTo(-0.35, 3);
    expect(upper!.axialMax).toBeGreaterThan(0.4);
    expect(upper!.meanRadius).toBeGreaterThan(0.03);
    expect(upper!.meanRadius).toBeLessThan(0.07);
    expect(fore!.axialMin).toBeGreaterThanOrEqual(0);
    expect(fore!.axialMax).toBeLessThan(0.46);
    expect(hand!.count).toBeGreaterThan(50);
  });

  it('has a reach clip on the three arm bones', () => {
    expect(mine.clips.map((c) => c.name)).toEqual(['reach']);
    expect(mine.clips[0]!.duration).toBeCloseTo(1.6, 5);
    expect(mine.clips[0]!.channels.map((c) => bones[c.bone]!.name).sort()).toEqual(['forearm', 'hand', 'upper_arm']);
  });

  it('external-buffer .gltf parses to the same creature as the .glb', () => {
    const gltf = parseCreature({
      name: 'armed-mine.gltf',
      bytes: new Uint8Array(readFileSync(join(dir, 'armed-mine.gltf'))),
      resources: { 'armed-mine.bin': new Uint8Array(readFileSync(join(dir, 'armed-mine.bin'))) },
    });
    expect(gltf.format).toBe('gltf');
    const { fileName: _a, format: _b, ...fromGltf } = gltf;
    const { fileName: _c, format: _d, ...fromGlb } = mine;
    expect(fromGltf).toEqual(fromGlb);
  });
});

describe('humanoid', () => {
  const human = load('humanoid.glb');
  const bones = human.skeleton.bones;
  const at = (name: string) => bones[boneIndex(human.skeleton, name)]!;

  it('has the 13 main bones in a parent-first hierarchy', () => {
    expect(bones.map((b) => b.name).sort()).toEqual([
      'foot_l', 'foot_r', 'forearm_l', 'forearm_r', 'head', 'pelvis', 'shin_l', 'shin_r', 'spine',
      'thigh_l', 'thigh_r', 'upper_arm_l', 'upper_arm_r',
    ]);
    const parentOf = (n: string) => (at(n).parent < 0 ? null : bones[at(n).parent]!.name);
    expect(parentOf('pelvis')).toBeNull();
    expect(parentOf('spine')).toBe('pelvis');
    expect(parentOf('head')).toBe('spine');
    for (const s of ['l', 'r']) {
      expect(parentOf(`upper_arm_${s}`)).toBe('spine');
      expect(parentOf(`forearm_${s}`)).toBe(`upper_arm_${s}`);
      expect(parentOf(`thigh_${s}`)).toBe('pelvis');
      expect(parentOf(`shin_${s}`)).toBe(`thigh_${s}`);
      expect(parentOf(`foot_${s}`)).toBe(`shin_${s}`);
    }
    bones.forEach((b, i) => expect(b.parent).toBeLessThan(i));
  });

  it('stands 1.8 m tall on y = 0 in a T-pose, left at +X (world rest positions, m)', () => {
    const expected: Record<string, Vec3> = {
      pelvis: [0, 0.95, 0], spine: [0, 1.08, 0], head: [0, 1.57, 0],
      upper_arm_l: [0.18, 1.44, 0], forearm_l: [0.47, 1.44, 0], upper_arm_r: [-0.18, 1.44, 0], forearm_r: [-0.47, 1.44, 0],
      thigh_l: [0.1, 0.92, 0], shin_l: [0.1, 0.5, 0], foot_l: [0.1, 0.09, 0],
      thigh_r: [-0.1, 0.92, 0], shin_r: [-0.1, 0.5, 0], foot_r: [-0.1, 0.09, 0],
    };
    for (const [name, p] of Object.entries(expected)) near(at(name).rest.world.translation, p);
    near(quatRotate(at('upper_arm_l').rest.world.rotation, [0, 1, 0]), [1, 0, 0]);
    near(quatRotate(at('thigh_r').rest.world.rotation, [0, 1, 0]), [0, -1, 0]);
    near(quatRotate(at('foot_l').rest.world.rotation, [0, 1, 0]), [0, 0, 1]);
    const head = human.boneVertices[boneIndex(human.skeleton, 'head')]!;
    expect(at('head').rest.world.translation[1] + head.boundsMax[1]).toBeCloseTo(1.8, 2);
    const foot = human.boneVertices[boneIndex(human.skeleton, 'foot_l')]!;
    // Foot frame: local Z is world up, so the sole is at local z = −(ankle height).
    expect(at('foot_l').rest.world.translation[1] + foot.boundsMin[2]).toBeCloseTo(0, 4);
    // Toes point forward (+Z): the foot reaches further ahead than behind the ankle.
    expect(foot.axialMax).toBeGreaterThan(-foot.axialMin);
  });

  it('inverse bind matrices invert the rest world transforms', () => {
    for (const b of bones) {
      const product = mat4Mul(mat4FromTRS(b.rest.world), b.inverseBindMatrix);
      near(product, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 1e-5);
    }
  });

  it('rest pose through poseToWorld gives the rest world transforms', () => {
    const world = poseToWorld(human.skeleton, restPose(human.skeleton));
    world.forEach((w, i) => {
      near(w.translation, bones[i]!.rest.world.translation, 1e-6);
      near(w.rotation, bones[i]!.rest.world.rotation, 1e-6);
    });
  });

  it('has wave and squat clips', () => {
    expect(human.clips.map((c) => `${c.name}:${c.duration}`)).toEqual(['wave:2', 'squat:2']);
  });
});
