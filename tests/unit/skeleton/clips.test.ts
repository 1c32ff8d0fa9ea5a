import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { quatAngleBetween, quatFromAxisAngle, quatRotate, type Quat } from '../../../shared/math';
import { boneIndex, parseCreature, poseToWorld, sampleClip } from '../../../shared/skeleton';
import { addChannel, twoBoneRig } from './gltfBuilder';

const dir = join(__dirname, '../../../assets/creatures');
const load = (name: string) => parseCreature({ name, bytes: new Uint8Array(readFileSync(join(dir, name))) });
const qz = (a: number): Quat => quatFromAxisAngle([0, 0, 1], a);
/** Largest component difference of two rotations (q and −q are the same rotation). Better than the
 *  acos-based angle near zero, where float32 keys give ~1e-4 rad of acos noise. */
const qdiff = (a: readonly number[], b: readonly number[]) => {
  const sign = a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]! < 0 ? -1 : 1;
  return Math.max(...a.map((x, i) => Math.abs(x - sign * b[i]!)));
};

describe('sampling the shipped clips', () => {
  const mine = load('armed-mine.glb');
  const reach = mine.clips[0]!;

  it('returns each keyframe exactly at its key time', () => {
    for (const ch of reach.channels) {
      ch.times.forEach((t, k) => {
        const pose = sampleClip(mine.skeleton, reach, t);
        const key = ch.values.slice(k * 4, k * 4 + 4) as Quat;
        expect(qdiff(pose[ch.bone]!.rotation, key)).toBeLessThan(1e-6);
      });
    }
  });

  it('slerps between keys: halfway is half the angle', () => {
    const ch = reach.channels.find((c) => mine.skeleton.bones[c.bone]!.name === 'upper_arm')!;
    const a = ch.values.slice(0, 4) as Quat, b = ch.values.slice(4, 8) as Quat;
    const mid = sampleClip(mine.skeleton, reach, (ch.times[0]! + ch.times[1]!) / 2)[ch.bone]!.rotation;
    const whole = quatAngleBetween(a, b);
    expect(whole).toBeGreaterThan(0.2);
    expect(quatAngleBetween(a, mid)).toBeCloseTo(whole / 2, 5);
    expect(quatAngleBetween(mid, b)).toBeCloseTo(whole / 2, 5);
  });

  it('clamps before the first and after the last key, wraps with loop', () => {
    const s = mine.skeleton;
    const b = boneIndex(s, 'forearm');
    expect(sampleClip(s, reach, -1)[b]).toEqual(sampleClip(s, reach, 0)[b]);
    expect(sampleClip(s, reach, 99)[b]).toEqual(sampleClip(s, reach, reach.duration)[b]);
    const wrapped = sampleClip(s, reach, reach.duration + 0.5, { loop: true })[b]!.rotation;
    expect(qdiff(wrapped, sampleClip(s, reach, 0.5)[b]!.rotation)).toBeLessThan(1e-6);
  });

  it('reach brings the hand down toward the floor and back', () => {
    const s = mine.skeleton;
    const hand = boneIndex(s, 'hand');
    const y = (t: number) => poseToWorld(s, sampleClip(s, reach, t))[hand]!.translation[1];
    expect(y(0.8)).toBeLessThan(y(0) - 0.1);
    expect(y(1.6)).toBeCloseTo(y(0), 4);
  });

  it('squat keeps both ankles where they are (within 1 mm) while the pelvis drops ≈ 38 cm', () => {
    const human = load('humanoid.glb');
    const squat = human.clips.find((c) => c.name === 'squat')!;
    const s = human.skeleton;
    const footL = boneIndex(s, 'foot_l'), footR = boneIndex(s, 'foot_r'), pelvis = boneIndex(s, 'pelvis');
    const rest = poseToWorld(s, sampleClip(s, squat, 0));
    for (let i = 0; i <= 8; i++) {
      const w = poseToWorld(s, sampleClip(s, squat, i * 0.25));
      for (const f of [footL, footR]) {
        for (let k = 0; k < 3; k++) expect(Math.abs(w[f]!.translation[k]! - rest[f]!.translation[k]!)).toBeLessThan(1e-3);
        // The sole stays level: the foot's local up (+Z) stays world up.
        expect(quatRotate(w[f]!.rotation, [0, 0, 1])[1]).toBeGreaterThan(0.9999);
      }
    }
    const bottom = poseToWorld(s, sampleClip(s, squat, 1))[pelvis]!.translation[1];
    expect(rest[pelvis]!.translation[1] - bottom).toBeCloseTo(0.83 * (1 - Math.cos(1)), 3);
  });
});

describe('interpolation modes', () => {
  const parse = (build: ReturnType<typeof twoBoneRig>) => parseCreature({ name: 'rig.gltf', ...build.gltf('data') });

  it('LINEAR translation interpolates linearly', () => {
    const g = twoBoneRig();
    addChannel(g, 'translation', 'LINEAR', [0, 2], [0, 1, 0, 2, 1, 0]);
    const c = parse(g);
    const p = sampleClip(c.skeleton, c.clips[0]!, 0.5)[1]!.translation;
    expect(p[0]).toBeCloseTo(0.5, 6);
    expect(p[1]).toBeCloseTo(1, 6);
  });

  it('STEP holds the previous key until the next key time', () => {
    const g = twoBoneRig();
    addChannel(g, 'rotation', 'STEP', [0, 1, 2], [...qz(0), ...qz(1), ...qz(2)]);
    const c = parse(g);
    const angle = (t: number) => quatAngleBetween(sampleClip(c.skeleton, c.clips[0]!, t)[1]!.rotation, qz(0));
    expect(qdiff(sampleClip(c.skeleton, c.clips[0]!, 0.99)[1]!.rotation, qz(0))).toBeLessThan(1e-6);
    expect(angle(1)).toBeCloseTo(1, 5);
    expect(angle(1.5)).toBeCloseTo(1, 5);
    expect(angle(2)).toBeCloseTo(2, 5);
  });

  it('CUBICSPLINE follows the Hermite spline (zero tangents: smoothstep between values)', () => {
    const g = twoBoneRig();
    // (in-tangent, value, out-tangent) per key.
    addChannel(g, 'translation', 'CUBICSPLINE', [0, 1], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0]);
    const c = parse(g);
    const x = (t: number) => sampleClip(c.skeleton, c.clips[0]!, t)[1]!.translation[0];
    expect(x(0.25)).toBeCloseTo(2 * (3 * 0.25 ** 2 - 2 * 0.25 ** 3), 6);
    expect(x(0.5)).toBeCloseTo(1, 6);
    expect(x(1)).toBeCloseTo(2, 6);
  });

  it('CUBICSPLINE with tangents: slope at the first key equals its out-tangent', () => {
    const g = twoBoneRig();
    addChannel(g, 'translation', 'CUBICSPLINE', [0, 1], [0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
    const c = parse(g);
    const x = (t: number) => sampleClip(c.skeleton, c.clips[0]!, t)[1]!.translation[0];
    expect((x(1e-4) - x(0)) / 1e-4).toBeCloseTo(3, 2);
  });

  it('rotation stored as normalized SHORT (KHR_mesh_quantization style) is dequantised', () => {
    const g = twoBoneRig();
    const input = g.accessor(new Float32Array([0, 1]), 'SCALAR');
    const q = qz(Math.PI / 2);
    const shorts = new Int16Array([0, 0, 0, 32767, ...q.map((v) => Math.round(v * 32767))]);
    const output = g.accessor(new Uint16Array(shorts.buffer), 'VEC4', { componentType: 5122, normalized: true });
    g.json.animations.push({ name: 'q', samplers: [{ input, output }], channels: [{ sampler: 0, target: { node: 1, path: 'rotation' } }] });
    const c = parse(g);
    const r = sampleClip(c.skeleton, c.clips[0]!, 1)[1]!.rotation;
    expect(quatAngleBetween(r, q)).toBeLessThan(1e-3);
  });
});
