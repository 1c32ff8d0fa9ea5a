/** authoringSkeletonFromCreature: shared/skeleton's reading of a creature file as the authoring input. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { authoringSkeletonFromCreature, clipDuration, ownedVertices, sampleClip } from '../../../shared/authoring';
import { rigBonesOf, skeletonFromGltf } from '../../../shared/document';
import { parseCreature, poseToWorld, sampleClip as sampleCreatureClip } from '../../../shared/skeleton';
import { creaturesDir } from './creatures';

const bytes = (name: string) => new Uint8Array(readFileSync(`${creaturesDir}${name}`));

describe('authoringSkeletonFromCreature', () => {
  const creature = parseCreature({ name: 'humanoid.glb', bytes: bytes('humanoid.glb') });
  const input = authoringSkeletonFromCreature(creature);

  it('gives the editor\'s bones: same order, parents and rest', () => {
    expect(input.bones).toEqual(rigBonesOf(skeletonFromGltf(bytes('humanoid.glb'), 'humanoid.glb')));
    expect(input.bones.map((b) => b.name)).toEqual(['pelvis', 'spine', 'head', 'upper_arm_l', 'forearm_l', 'upper_arm_r', 'forearm_r', 'thigh_l', 'shin_l', 'foot_l', 'thigh_r', 'shin_r', 'foot_r']);
  });

  it('hands every skinned vertex to one bone, as many per bone as shared/skeleton counts', () => {
    const owned = ownedVertices(input.skins);
    let total = 0;
    creature.skeleton.bones.forEach((b, i) => {
      const n = owned.get(b.name)?.length ?? 0;
      total += n;
      expect(n, b.name).toBe(creature.boneVertices[i]!.count);
    });
    expect(total).toBe(creature.mesh.skinnedVertexCount);
    expect(total).toBeGreaterThan(100);
  });

  it('names each clip channel\'s bone, and samples to the same local rotations as shared/skeleton', () => {
    expect(input.clips!.map((c) => c.name)).toEqual(creature.clips.map((c) => c.name));
    creature.clips.forEach((clip, c) => {
      const named = input.clips![c]!;
      expect(clipDuration(named)).toBeCloseTo(clip.duration, 12);
      for (const t of [0, clip.duration / 3, clip.duration]) {
        const ours = sampleClip(named, input.bones, t);
        const theirs = sampleCreatureClip(creature.skeleton, clip, t);
        creature.skeleton.bones.forEach((b, i) => {
          const q = ours.get(b.name)!.rotation, r = theirs[i]!.rotation;
          expect(Math.abs(q[0] * r[0] + q[1] * r[1] + q[2] * r[2] + q[3] * r[3]), `${clip.name} ${b.name} t=${t}`).toBeCloseTo(1, 8);
        });
      }
    });
    // The clips move something: a bone's world position changes between start and middle somewhere.
    const clip = creature.clips[0]!;
    const start = poseToWorld(creature.skeleton, sampleCreatureClip(creature.skeleton, clip, 0));
    const mid = poseToWorld(creature.skeleton, sampleCreatureClip(creature.skeleton, clip, clip.duration / 2));
    expect(Math.max(...start.map((w, i) => Math.hypot(...w.translation.map((x, k) => x - mid[i]!.translation[k]!))))).toBeGreaterThan(0.01);
  });
});
