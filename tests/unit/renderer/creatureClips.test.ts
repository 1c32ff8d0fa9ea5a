/**
 * clipsFromGltf (shared/document/creatureClips.ts, over shared/skeleton's glTF reader): a creature file's
 * animation clips as keyframe data for the preview's animation targets, named by bone — from a GLB's
 * binary chunk, a .gltf's external .bin and a base64 data: URI alike; a broken clip is left out with a
 * message naming the file and field while the others load.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { clipsFromGltf, skeletonFromGltf } from '../../../shared/document';
import { gltfJsonText } from '../../../shared/project/gltfResources';
import { clipDuration, sampleClip } from '../../../shared/authoring/clip';
import { rigBonesOf } from '../../../shared/document';

const asset = (name: string) => new Uint8Array(readFileSync(fileURLToPath(new URL(`../../../assets/creatures/${name}`, import.meta.url))));
const text = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));
const plain = (clips: ReturnType<typeof clipsFromGltf>['clips']) =>
  clips.map((c) => ({ name: c.name, channels: c.channels.map((ch) => ({ ...ch, times: Array.from(ch.times), values: Array.from(ch.values) })) }));

describe('clipsFromGltf', () => {
  const glb = asset('humanoid.glb');
  const skeleton = skeletonFromGltf(glb, 'humanoid.glb');

  it('reads the humanoid\'s "wave" and "squat" clips: bone channels, increasing times, unit rotation keys', () => {
    const { clips, problems } = clipsFromGltf(glb, 'humanoid.glb', skeleton);
    expect(problems).toEqual([]);
    expect(clips.map((c) => c.name)).toEqual(['wave', 'squat']);
    const wave = clips[0]!;
    expect(wave.channels.map((c) => `${c.bone}.${c.path}`)).toEqual(['upper_arm_r.rotation', 'forearm_r.rotation', 'head.rotation']);
    expect(clipDuration(wave)).toBeGreaterThan(0.5);
    const bones = new Set(skeleton.bones.map((b) => b.name));
    for (const c of clips.flatMap((x) => x.channels)) {
      expect(bones.has(c.bone)).toBe(true);
      const w = c.path === 'rotation' ? 4 : 3;
      expect(c.values.length).toBe(c.times.length * w);
      for (let k = 1; k < c.times.length; k++) expect(c.times[k]!).toBeGreaterThan(c.times[k - 1]!);
      if (c.path === 'rotation') for (let k = 0; k < c.times.length; k++) {
        expect(Math.hypot(c.values[4 * k]!, c.values[4 * k + 1]!, c.values[4 * k + 2]!, c.values[4 * k + 3]!)).toBeCloseTo(1, 5);
      }
    }
    // Half-way through the wave the right upper arm is turned well away from its rest rotation.
    const mid = sampleClip(wave, rigBonesOf(skeleton), clipDuration(wave) / 2).get('upper_arm_r')!.rotation;
    const rest = skeleton.bones.find((b) => b.name === 'upper_arm_r')!.rotation;
    const dot = Math.abs(mid[0] * rest[0] + mid[1] * rest[1] + mid[2] * rest[2] + mid[3] * rest[3]);
    expect((2 * Math.acos(Math.min(1, dot)) * 180) / Math.PI).toBeGreaterThan(20);
  });

  it('the Armed Mine .gltf with its external .bin gives the same clip as the .glb', () => {
    const g = asset('armed-mine.gltf');
    const bin = { 'armed-mine.bin': asset('armed-mine.bin') };
    const sk = skeletonFromGltf(g, 'armed-mine.gltf', bin);
    const fromGltf = clipsFromGltf(g, 'armed-mine.gltf', sk, bin);
    const fromGlb = clipsFromGltf(asset('armed-mine.glb'), 'armed-mine.glb', skeletonFromGltf(asset('armed-mine.glb'), 'armed-mine.glb'));
    expect(fromGltf.problems).toEqual([]);
    expect(fromGltf.clips.map((c) => c.name)).toEqual(['reach']);
    expect(plain(fromGltf.clips)).toEqual(plain(fromGlb.clips));
    // Without its .bin the clip is left out, saying which file is missing.
    const missing = clipsFromGltf(g, 'armed-mine.gltf', sk, {});
    expect(missing.clips).toEqual([]);
    expect(missing.problems).toHaveLength(1);
    expect(missing.problems[0]).toMatch(/^clip "reach" left out: armed-mine\.gltf: buffer 0 'armed-mine\.bin' was not provided/);
  });

  it('reads a base64 data: buffer, and leaves out only the clip whose sampler is broken', () => {
    const json = JSON.parse(gltfJsonText(glb, 'humanoid.glb')) as { buffers: { uri?: string; byteLength: number }[]; animations: { samplers: { output: number }[] }[] };
    // The GLB's binary chunk: after the 12-byte header and the JSON chunk (8-byte header + its length).
    const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
    const jsonLen = dv.getUint32(12, true);
    const bin = glb.subarray(20 + jsonLen + 8, 20 + jsonLen + 8 + dv.getUint32(20 + jsonLen, true));
    json.buffers[0]!.uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
    const embedded = clipsFromGltf(text(json), 'embedded.gltf', skeleton);
    expect(embedded.problems).toEqual([]);
    expect(plain(embedded.clips)).toEqual(plain(clipsFromGltf(glb, 'humanoid.glb', skeleton).clips));
    // Point squat's first sampler output at the key times (SCALAR, not VEC4): squat is refused, wave kept.
    const broken = structuredClone(json);
    const squat = broken.animations[1]!;
    squat.samplers[0]!.output = (squat.samplers[0] as unknown as { input: number }).input;
    const r = clipsFromGltf(text(broken), 'broken.gltf', skeleton);
    expect(r.clips.map((c) => c.name)).toEqual(['wave']);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(/^clip "squat" left out: broken\.gltf: accessor \d+ \(animation 1 \(squat\) channel 0 output\) is SCALAR FLOAT, expected VEC4/);
  });
});
