/**
 * Motors with target source "animation" in the preview engine: the humanoid with every motor set to its
 * file's "wave" clip (read by clipsFromGltf, as the editor does on load) follows the clip under its torque
 * limits — the right arm lifts well away from rest while the same rig without the clip holds its rest pose.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRig, type RigDocument } from '../../../shared/rig';
import { setMotor } from '../../../shared/authoring';
import { clipDuration } from '../../../shared/authoring/clip';
import { clipsFromGltf, skeletonFromGltf } from '../../../shared/document';
import { PreviewEngine } from '../../../shared/preview/engine';
import { recordedSeries } from '../../../shared/preview/series';

const asset = (name: string) => readFileSync(new URL(`../../../assets/creatures/${name}`, import.meta.url));
const glb = new Uint8Array(asset('humanoid.glb'));
const { clips } = clipsFromGltf(glb, 'humanoid.glb', skeletonFromGltf(glb, 'humanoid.glb'));
const wave = clips.find((c) => c.name === 'wave')!;

let rig: RigDocument = loadRig(JSON.parse(asset('humanoid.rig.json').toString('utf8')), { source: 'humanoid.rig.json' });
for (const j of rig.joints) {
  const r = setMotor(rig, j.name, { target: { source: 'animation', clip: 'wave' } });
  if (!r.ok) throw new Error(`${r.field}: ${r.message}`);
  rig = r.rig;
}

const DEG = 180 / Math.PI;

function run(withClip: boolean) {
  const e = new PreviewEngine(rig);
  if (withClip) e.setClips(clips);
  e.advance(Math.round(clipDuration(wave) / e.dt));
  const { frames, aux } = e.slice(0, e.length);
  return recordedSeries({ layout: e.recorder.layout, frameSize: e.frameSize, aux: e.aux, frames, auxData: aux, count: e.length, root: 'pelvis', massOf: () => null });
}

describe('animation targets in the preview', () => {
  it('all motors on "wave": the right arm follows the clip (> 10° from rest), within its torque limits', () => {
    const rec = run(true);
    const arm = rec.series('upper_arm_r', 'angle'), target = rec.series('upper_arm_r', 'target');
    const maxAngle = Math.max(...arm) * DEG, maxTarget = Math.max(...target) * DEG;
    expect(maxTarget).toBeGreaterThan(10);
    expect(maxAngle).toBeGreaterThan(10);
    // It reaches most of the way to the clip's pose, not just a twitch.
    expect(maxAngle).toBeGreaterThan(0.8 * maxTarget);
    // Joints the clip does not animate hold the rest pose: the left arm's target stays at 0.
    expect(Math.max(...rec.series('upper_arm_l', 'target'))).toBeLessThan(1e-6);
    for (const j of ['upper_arm_r', 'forearm_r']) {
      const tau = rec.series(j, 'torque'), max = rec.series(j, 'maxTorque');
      tau.forEach((v, i) => expect(Math.abs(v)).toBeLessThanOrEqual(max[i]! * (1 + 1e-9)));
    }
  });

  it('without the clip handed to the preview the same rig holds its rest pose (arm within its PD sag, < 3.5°)', () => {
    const rec = run(false);
    // A generated PD motor reaches τmax at 0.15 rad and τmax ≥ 2.5 × the static torque it carries, so gravity
    // sags it by at most 0.15 / 2.5 rad = 3.4°.
    expect(Math.max(...rec.series('upper_arm_r', 'angle')) * DEG).toBeLessThan(3.5);
  });
});
