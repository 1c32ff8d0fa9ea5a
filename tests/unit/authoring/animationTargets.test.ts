import { describe, expect, it } from 'vitest';
import { animationTargets, clipDuration, sampleClip } from '../../../shared/authoring';
import { quatAngleBetween, type Quat } from '../../../shared/math';
import { loadRig } from '../../../shared/rig';
import { readFileSync } from 'node:fs';
import { createSimulation } from '../../../shared/runtime';
import { creature, creaturesDir } from './creatures';

const rig = loadRig(readFileSync(`${creaturesDir}humanoid.rig.json`, 'utf8'));

describe('animationTargets', () => {
  it('at the rest pose every target is the neutral one', async () => {
    const squat = (await creature('humanoid')).clips!.find((c) => c.name === 'squat')!;
    const t = animationTargets(rig, squat, 0);
    for (const j of rig.joints) {
      const v = t[j.name]!;
      if (typeof v === 'number') expect(Math.abs(v)).toBeLessThan(1e-6);
      else expect(quatAngleBetween(v, [0, 0, 0, 1])).toBeLessThan(1e-6);
    }
  });

  it('squat: the knee hinge targets twice the hip flexion, the ankle ball once (the clip bends 2a and a)', async () => {
    const squat = (await creature('humanoid')).clips!.find((c) => c.name === 'squat')!;
    expect(clipDuration(squat)).toBeCloseTo(2, 6);
    const t = animationTargets(rig, squat, 1); // a = 1 rad at t = 1 s
    expect(t.shin_l).toBeCloseTo(2, 3); // knee flexes + by 2 rad
    expect(t.shin_r).toBeCloseTo(2, 3);
    expect(quatAngleBetween(t.foot_l as Quat, [0, 0, 0, 1])).toBeCloseTo(1, 3); // the ankle is a ball joint: 1 rad
    expect(quatAngleBetween(t.thigh_l as Quat, [0, 0, 0, 1])).toBeCloseTo(1, 3);
    // Looping: t + duration gives the same targets.
    expect(animationTargets(rig, squat, 3).shin_l).toBeCloseTo(t.shin_l as number, 9);
  });

  it('the powered ragdoll follows the wave clip under its torque limits', async () => {
    const h = await creature('humanoid');
    const wave = h.clips!.find((c) => c.name === 'wave')!;
    expect(sampleClip(wave, rig.skeleton.bones, 0.7).get('forearm_r')!.rotation).not.toEqual(rig.skeleton.bones.find((b) => b.name === 'forearm_r')!.rest.rotation);
    const sim = createSimulation(rig);
    for (let i = 0; i < 42; i++) { sim.setMotorTargets(animationTargets(rig, wave, sim.time)); sim.step(); } // to t = 0.7 s
    const target = animationTargets(rig, wave, sim.time).forearm_r as number;
    const angle = sim.world.getJointAngle((sim as unknown as { jointHandles: never[] }).jointHandles[rig.joints.findIndex((j) => j.name === 'forearm_r')]!) as number;
    expect(Math.abs(target)).toBeGreaterThan(0.2);
    expect(Math.abs(angle - target)).toBeLessThan(0.15);
  });
});
