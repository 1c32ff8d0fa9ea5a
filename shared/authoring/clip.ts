/**
 * An editor clip (channels naming their bones) at a time: per bone, its parent-relative rotation and
 * translation. Bones and properties a clip does not animate keep their rest values; scale channels are
 * not a ragdoll's business. Each channel is sampled by shared/skeleton's sampleChannel (glTF LINEAR /
 * STEP / CUBICSPLINE, clamped to the first and last key); `loop` wraps t into the clip's length.
 */
import { quatNormalize, type Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { Bone } from '../rig/schema';
import { sampleChannel } from '../skeleton/animation';
import type { AnimationClip } from './skeletonInput';

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
    if (ch.path === 'rotation') pose.rotation = [v[0]!, v[1]!, v[2]!, v[3]!];
    else pose.translation = [v[0]!, v[1]!, v[2]!];
  }
  return out;
}
