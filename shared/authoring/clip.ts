/**
 * Sampling an AnimationClip (glTF channels) at a time: per bone, its parent-relative rotation and
 * translation. Bones and properties a clip does not animate keep their rest values. Times before the first
 * key hold the first key, after the last key hold the last (glTF); `loop` wraps t into the clip's length.
 * Rotation keys are slerped the short way (LINEAR), held (STEP) or Hermite-interpolated and normalised
 * (CUBICSPLINE, glTF appendix C).
 */
import { quatNormalize, quatSlerp, type Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { Bone } from '../rig/schema';
import type { AnimationClip, ClipChannel } from './skeletonInput';

export interface LocalBonePose { translation: Vec3; rotation: Quat }

/** Length (s) of a clip: its last key time. */
export function clipDuration(clip: AnimationClip): number {
  let end = 0;
  for (const c of clip.channels) if (c.times.length > 0) end = Math.max(end, c.times[c.times.length - 1]!);
  return end;
}

export function sampleClip(clip: AnimationClip, bones: readonly Bone[], time: number, loop = false): Map<string, LocalBonePose> {
  const duration = clipDuration(clip);
  const t = loop && duration > 0 ? ((time % duration) + duration) % duration : time;
  const out = new Map<string, LocalBonePose>();
  for (const b of bones) {
    out.set(b.name, { translation: [...b.rest.translation], rotation: quatNormalize(b.rest.rotation) });
  }
  for (const ch of clip.channels) {
    const pose = out.get(ch.bone);
    if (!pose || ch.path === 'scale') continue;
    const v = sampleChannel(ch, t);
    if (ch.path === 'rotation') pose.rotation = quatNormalize([v[0]!, v[1]!, v[2]!, v[3]!]);
    else pose.translation = [v[0]!, v[1]!, v[2]!];
  }
  return out;
}

/** The channel's value at t (3 or 4 numbers). */
export function sampleChannel(ch: ClipChannel, t: number): number[] {
  const n = ch.times.length;
  const width = ch.path === 'rotation' ? 4 : 3;
  const cubic = ch.interpolation === 'CUBICSPLINE';
  const stride = cubic ? 3 * width : width;
  const valueAt = (k: number, part = 1) => Array.from({ length: width }, (_, c) => ch.values[k * stride + (cubic ? part * width : 0) + c]!);
  if (n === 0) throw new Error(`clip channel ${ch.bone}.${ch.path} has no keys`);
  if (t <= ch.times[0]! || n === 1) return valueAt(0);
  if (t >= ch.times[n - 1]!) return valueAt(n - 1);
  // Binary search for the key interval [k, k + 1] holding t.
  let lo = 0, hi = n - 1;
  while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (ch.times[mid]! <= t) lo = mid; else hi = mid; }
  const t0 = ch.times[lo]!, t1 = ch.times[hi]!, td = t1 - t0, u = (t - t0) / td;
  if (ch.interpolation === 'STEP') return valueAt(lo);
  if (cubic) {
    // p(u) = (2u³−3u²+1)v0 + td(u³−2u²+u)b0 + (−2u³+3u²)v1 + td(u³−u²)a1
    const v0 = valueAt(lo, 1), b0 = valueAt(lo, 2), v1 = valueAt(hi, 1), a1 = valueAt(hi, 0);
    const u2 = u * u, u3 = u2 * u;
    const out = v0.map((_, c) => (2 * u3 - 3 * u2 + 1) * v0[c]! + td * (u3 - 2 * u2 + u) * b0[c]! + (-2 * u3 + 3 * u2) * v1[c]! + td * (u3 - u2) * a1[c]!);
    return width === 4 ? quatNormalize(out as Quat) : out;
  }
  const a = valueAt(lo), b = valueAt(hi);
  if (width === 4) return quatSlerp(a as Quat, b as Quat, u);
  return a.map((x, c) => x + (b[c]! - x) * u);
}
