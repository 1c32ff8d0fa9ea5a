import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { serializeRig, validateRig, type RigDocument } from '../../../shared/rig';
import { computeMassProperties } from '../../../shared/physics/massProperties';
import type { ShapeDesc } from '../../../shared/physics/types';
import { createSimulation } from '../../../shared/runtime';
import { humanoidRig } from '../../../assets/scripts/humanoid-rig';
import { creature, creaturesDir } from './creatures';

const text = readFileSync(`${creaturesDir}humanoid.rig.json`, 'utf8');
const MAIN = ['pelvis', 'spine', 'head', 'upper_arm_l', 'upper_arm_r', 'forearm_l', 'forearm_r', 'thigh_l', 'thigh_r', 'shin_l', 'shin_r', 'foot_l', 'foot_r'];

describe('assets/creatures/humanoid.rig.json', () => {
  const check = validateRig(text);
  const rig = check.ok ? check.rig : (undefined as unknown as RigDocument);

  it('validates, and is what the script generates from humanoid.glb', async () => {
    expect(check.ok ? [] : check.problems).toEqual([]);
    expect(serializeRig(humanoidRig(await creature('humanoid')))).toBe(text);
  });

  it('has a body for each of the 13 main bones, joints with limits and motors, about 70 kg', () => {
    expect(rig.bodies.map((b) => b.bone).sort()).toEqual([...MAIN].sort());
    expect(rig.joints).toHaveLength(12);
    for (const j of rig.joints) {
      if (j.type !== 'ball' && j.type !== 'hinge') throw new Error(`unexpected ${j.type} joint ${j.name}`);
      expect(j.motor.mode).not.toBe('off');
      expect(j.motor.maxTorque).toBeGreaterThan(0);
      if (j.type === 'hinge') expect(j.limit).not.toBeNull();
      else expect(j.swingLimit).not.toBeNull();
    }
    const mass = rig.bodies.reduce((s, b) => s + computeMassProperties(b.shapes as readonly ShapeDesc[], b.mass !== null ? { mass: b.mass } : { density: b.density! }).mass, 0);
    expect(mass).toBeGreaterThan(65);
    expect(mass).toBeLessThan(80);
  });

  it('stands for 5 s on its motors with rest-pose targets (pelvis height within 10 % of its start)', () => {
    const sim = createSimulation(rig);
    const y0 = sim.bodyPose('pelvis').position[1];
    let worst = 0;
    for (let i = 0; i < Math.round(5 / sim.dt); i++) {
      sim.step();
      worst = Math.max(worst, Math.abs(sim.bodyPose('pelvis').position[1] - y0) / y0);
    }
    expect(sim.blowUp).toBeNull();
    expect(worst).toBeLessThan(0.1);
  });

  it('limp, falls without NaN and with no joint error above 1 cm', () => {
    const sim = createSimulation(rig);
    sim.setMotorsEnabled(false);
    const y0 = sim.bodyPose('pelvis').position[1];
    let worstError = 0;
    for (let i = 0; i < Math.round(5 / sim.dt); i++) {
      sim.step();
      const f = sim.frame();
      for (const b of Object.values(f.bodies)) expect([...b.p, ...b.q].every(Number.isFinite)).toBe(true);
      for (const j of Object.values(f.joints)) worstError = Math.max(worstError, j.error);
    }
    expect(sim.bodyPose('pelvis').position[1]).toBeLessThan(0.5 * y0); // it did fall
    expect(worstError).toBeLessThan(0.01);
  });
});
