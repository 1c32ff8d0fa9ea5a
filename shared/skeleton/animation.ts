/** Animation clips: reading glTF animations that target bones, and sampling a clip at a time t into a
 *  local pose (rest values where a bone has no channel). LINEAR interpolates translation and scale
 *  linearly and rotation by slerp; STEP holds the previous key; CUBICSPLINE is glTF's Hermite spline
 *  p(s) = (2s³−3s²+1)v₀ + (s³−2s²+s)Δt·b₀ + (−2s³+3s²)v₁ + (s³−s²)Δt·a₁, rotations re-normalised. */
import {
  mat4FromTRS, mat4Mul, mat4ToTRS, quatNormalize, quatSlerp,
  type Mat4, type Quat, type TRS, type Vec3,
} from '../math';
import type { GltfDocument } from './gltfDocument';
import type { AnimationChannel, AnimationClip, ChannelPath, Interpolation, LocalPose, Skeleton } from './types';

const PATH_SIZE: Record<ChannelPath, number> = { translation: 3, rotation: 4, scale: 3 };

export function readClips(doc: GltfDocument, boneOfNode: readonly number[], warnings: string[]): AnimationClip[] {
  return doc.list('animations').map((anim, a) => {
    const name = typeof anim.name === 'string' && anim.name.length ? anim.name : `clip_${a}`;
    const samplers = anim.samplers;
    const channels = anim.channels;
    if (!Array.isArray(samplers) || !Array.isArray(channels)) doc.fail(`animation ${a} (${name}) has no samplers or channels array`);
    const out: AnimationChannel[] = [];
    let ignored = 0;
    (channels as unknown[]).forEach((c, ci) => {
      const where = `animation ${a} (${name}) channel ${ci}`;
      const ch = c as Record<string, unknown>;
      const target = ch?.target as Record<string, unknown> | undefined;
      if (typeof target !== 'object' || target === null) doc.fail(`${where} has no target`);
      const path = target!.path;
      if (path === 'weights' || target!.node === undefined) { ignored++; return; }
      if (path !== 'translation' && path !== 'rotation' && path !== 'scale') doc.fail(`${where}: unknown target path ${JSON.stringify(path)}`);
      const node = doc.index(target!.node, 'nodes', where);
      const si = ch.sampler;
      if (typeof si !== 'number' || !Number.isInteger(si) || si < 0 || si >= samplers.length) {
        doc.fail(`${where} refers to sampler ${JSON.stringify(si)}, the animation has ${samplers.length}`);
      }
      const bone = boneOfNode[node]!;
      if (bone < 0) { ignored++; return; }
      const sampler = samplers[si as number] as Record<string, unknown>;
      const interpolation = (sampler.interpolation ?? 'LINEAR') as Interpolation;
      if (!['LINEAR', 'STEP', 'CUBICSPLINE'].includes(interpolation)) doc.fail(`${where}: unknown interpolation ${String(interpolation)}`);
      const input = doc.accessor(sampler.input, `${where} input`);
      doc.expect(input, sampler.input, `${where} input`, ['SCALAR'], [5126]);
      const output = doc.accessor(sampler.output, `${where} output`);
      const size = PATH_SIZE[path];
      const outType = size === 4 ? 'VEC4' : 'VEC3';
      doc.expect(output, sampler.output, `${where} output`, [outType], path === 'rotation' ? [5126, 5120, 5121, 5122, 5123] : [5126]);
      const times = Array.from(input.values);
      for (let k = 1; k < times.length; k++) {
        if (times[k]! < times[k - 1]!) doc.fail(`${where}: key times decrease at key ${k} (${times[k - 1]} → ${times[k]})`);
      }
      if (times[0]! < 0) doc.fail(`${where}: negative key time ${times[0]}`);
      const perKey = interpolation === 'CUBICSPLINE' ? 3 : 1;
      if (output.count !== times.length * perKey) doc.fail(`${where}: ${output.count} output values for ${times.length} key times (${interpolation} needs ${times.length * perKey})`);
      out.push({ bone, path, interpolation, times, values: Array.from(output.values) });
    });
    if (ignored) warnings.push(`clip ${name}: ${ignored} channel(s) on morph weights or non-bone nodes ignored`);
    const duration = out.reduce((d, c) => Math.max(d, c.times[c.times.length - 1] ?? 0), 0);
    return { name, duration, channels: out };
  });
}

/** What sampling needs of a channel: any keyframe track in glTF's layout (this module's
 *  AnimationChannel, or an editor clip's channel that names its bone and holds typed arrays). */
export interface KeyTrack {
  path: ChannelPath;
  interpolation: Interpolation;
  times: ArrayLike<number>;
  values: ArrayLike<number>;
}

/** The value of one channel at time t (clamped to the channel's first and last key): 3 numbers for
 *  translation and scale, a unit quaternion [x, y, z, w] for rotation. */
export function sampleChannel(ch: KeyTrack, t: number): number[] {
  const n = PATH_SIZE[ch.path];
  const times = ch.times;
  const last = times.length - 1;
  if (last < 0) throw new Error(`a ${ch.path} channel has no keys`);
  const cubic = ch.interpolation === 'CUBICSPLINE';
  // Value k: for CUBICSPLINE the middle of the (in-tangent, value, out-tangent) triple.
  const value = (k: number, part = 1) => {
    const o = cubic ? (k * 3 + part) * n : k * n;
    return Array.from({ length: n }, (_, c) => ch.values[o + c]!);
  };
  if (t <= times[0]! || last === 0) return finish(ch, value(0));
  if (t >= times[last]!) return finish(ch, value(last));
  // Largest k with times[k] ≤ t (binary search; t is strictly inside the key range here).
  let lo = 0, hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= t) lo = mid; else hi = mid;
  }
  const t0 = times[lo]!, t1 = times[lo + 1]!;
  const dt = t1 - t0;
  const s = dt > 0 ? (t - t0) / dt : 0;
  if (ch.interpolation === 'STEP') return finish(ch, value(lo));
  if (ch.interpolation === 'LINEAR') {
    const a = value(lo), b = value(lo + 1);
    if (ch.path === 'rotation') return finish(ch, quatSlerp(a as Quat, b as Quat, s));
    return a.map((x, i) => x + (b[i]! - x) * s);
  }
  const v0 = value(lo, 1), b0 = value(lo, 2), a1 = value(lo + 1, 0), v1 = value(lo + 1, 1);
  const s2 = s * s, s3 = s2 * s;
  const h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
  return finish(ch, v0.map((x, i) => h00 * x + h10 * dt * b0[i]! + h01 * v1[i]! + h11 * dt * a1[i]!));
}

const finish = (ch: KeyTrack, v: number[]): number[] => (ch.path === 'rotation' ? quatNormalize(v as Quat) : v);

export function restPose(skeleton: Skeleton): LocalPose {
  return skeleton.bones.map((b) => cloneTRS(b.rest.local));
}

/** Local pose of every bone at time t (s). `loop` wraps t into [0, duration); otherwise t is clamped. */
export function sampleClip(skeleton: Skeleton, clip: AnimationClip, t: number, options: { loop?: boolean } = {}): LocalPose {
  let time = t;
  if (options.loop && clip.duration > 0) time = ((t % clip.duration) + clip.duration) % clip.duration;
  const pose = restPose(skeleton);
  for (const ch of clip.channels) {
    const v = sampleChannel(ch, time);
    const trs = pose[ch.bone]!;
    if (ch.path === 'rotation') trs.rotation = [v[0]!, v[1]!, v[2]!, v[3]!];
    else if (ch.path === 'translation') trs.translation = [v[0]!, v[1]!, v[2]!];
    else trs.scale = [v[0]!, v[1]!, v[2]!];
  }
  return pose;
}

/** World transforms of a local pose: world(b) = world(parent) · parentOffset(b) · local(b). */
export function poseToWorld(skeleton: Skeleton, pose: LocalPose): TRS[] {
  const mats: Mat4[] = [];
  return skeleton.bones.map((b, i) => {
    const offset = mat4Mul(mat4FromTRS(b.rest.parentOffset), mat4FromTRS(pose[i]!));
    mats[i] = b.parent < 0 ? offset : mat4Mul(mats[b.parent]!, offset);
    return mat4ToTRS(mats[i]!);
  });
}

const cloneTRS = (t: TRS): TRS => ({
  translation: [...t.translation] as Vec3, rotation: [...t.rotation] as Quat, scale: [...t.scale] as Vec3,
});
