/**
 * The animation clips of a glTF 2.0 creature as plain data (shared/authoring's AnimationClip: keyframe
 * channels per bone, named), for the preview's motors whose target source is "animation" — sampled by
 * shared/authoring/clip.ts. The bytes are read by shared/skeleton's glTF reader (container, buffers,
 * accessors incl. normalised and sparse, channel checks); this only matches its channels to the bones of
 * creatureSkeleton.ts by glTF node index and keeps each clip apart:
 *
 * A clip that cannot be read is left out with a problem naming the file and the field, so a broken clip
 * never stops a creature from opening; the other clips still load. Channels on morph weights or on nodes
 * that are not bones are not a ragdoll's business and are skipped.
 */
import type { AnimationClip } from '../authoring/skeletonInput';
import { readClips } from '../skeleton/animation';
import { mapChannelValues } from '../skeleton/rigid';
import { readContainer } from '../skeleton/container';
import { GltfDocument } from '../skeleton/gltfDocument';
import type { SkeletonData } from './creatureSkeleton';

export interface CreatureClips {
  clips: AnimationClip[];
  /** One message per clip left out: 'clip "NAME" left out: FILE: reason' (the reason names the field). */
  problems: string[];
}

/**
 * Clips of a .glb or .gltf whose skeleton is `skeleton` (skeletonFromGltf of the same bytes). `resources`:
 * the external files a .gltf names, keyed by URI (as written or decoded).
 */
export function clipsFromGltf(bytes: Uint8Array, fileName: string, skeleton: SkeletonData, resources: Readonly<Record<string, Uint8Array>> = {}): CreatureClips {
  let container: ReturnType<typeof readContainer>;
  try {
    container = readContainer(fileName, bytes);
  } catch (e) {
    return { clips: [], problems: [`clips left out: ${message(e)}`] };
  }
  const json = container.json as { animations?: unknown; nodes?: unknown };
  const animations = Array.isArray(json.animations) ? (json.animations as unknown[]) : [];
  if (animations.length === 0) return { clips: [], problems: [] };
  const nodeCount = Array.isArray(json.nodes) ? json.nodes.length : 0;
  const boneOfNode = new Array<number>(nodeCount).fill(-1);
  skeleton.bones.forEach((b, i) => { if (b.node < nodeCount) boneOfNode[b.node] = i; });

  const clips: AnimationClip[] = [];
  const problems: string[] = [];
  const names = new Set<string>();
  animations.forEach((anim, a) => {
    const raw = anim as { name?: unknown } | null;
    const name = raw && typeof raw.name === 'string' && raw.name !== '' ? raw.name : `animation_${a}`;
    try {
      if (names.has(name)) throw new Error(`${fileName}: animation ${a}: an earlier clip has the same name (motors pick clips by name)`);
      // One clip at a time (the others emptied, so indices in messages stay the file's): a broken clip
      // leaves only itself out.
      const only = { ...json, animations: animations.map((x, k) => (k === a ? { ...(x as object), name } : { samplers: [], channels: [] })) };
      const doc = new GltfDocument(fileName, { ...container, json: only }, { ...resources });
      const clip = readClips(doc, boneOfNode, [])[a]!;
      names.add(name);
      clips.push({
        name,
        // Keys in the rigid terms of the skeleton's rest (non-bone ancestors folded in); scale keys dropped.
        channels: clip.channels.filter((ch) => ch.path !== 'scale').map((ch) => {
          const bone = skeleton.bones[ch.bone]!;
          const values = bone.channel ? mapChannelValues(bone.channel, ch.path as 'translation' | 'rotation', ch.interpolation, ch.values) : Float64Array.from(ch.values);
          return { bone: bone.name, path: ch.path, interpolation: ch.interpolation, times: Float64Array.from(ch.times), values };
        }),
      });
    } catch (e) {
      problems.push(`clip "${name}" left out: ${message(e)}`);
    }
  });
  return { clips, problems };
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
