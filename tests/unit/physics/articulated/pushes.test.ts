/**
 * The articulated solver's pushes back — from past a joint stop, out of a penetration — are bounded as the
 * rigid solver's are, and leave no velocity behind (drives.ts `stopBias`, `contactRows`, the relax in
 * `stepWithDrives`; docs/articulated.md "Pushes back: bounded, and relaxed away"). Before, a random valid rig
 * started 1 rad past a hinge stop was thrown back at 0.2·1/h (48 rad/s at 1/240 s), and two bodies overlapping
 * at their common joint were pushed apart at erp·depth/h every substep, the push kept as velocity each time.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_BIAS_VELOCITY } from '../../../../shared/physics/stepContext';
import { validateRig, type RigDocument } from '../../../../shared/rig';
import { createSimulation } from '../../../../shared/runtime';
import { chainRig } from './rigs';
import { randomRig } from '../../../fuzz/randomRigs';

describe('articulated pushes back', () => {
  it('a hinge started 1 rad below its stop [1, 1.4] (zero g) returns at most MAX_BIAS_VELOCITY a step, keeps no velocity, and ends on the stop', () => {
    const doc = JSON.parse(JSON.stringify(chainRig({ links: 1, joint: 'hinge', angles: [0] }))) as RigDocument;
    (doc.joints[0] as { limit: [number, number] }).limit = [1, 1.4];
    doc.solver = 'articulated';
    doc.simulation = { ...doc.simulation, gravity: [0, 0, 0] };
    const v = validateRig(doc);
    if (!v.ok) throw new Error(JSON.stringify(v.problems));
    const sim = createSimulation(v.rig), h = sim.dt, j = sim.jointHandle('j0');
    let angle = sim.world.getJointAngle(j) as number, fastest = 0, largestStep = 0;
    for (let s = 0; s < 240; s++) {
      sim.step();
      const now = sim.world.getJointAngle(j) as number;
      largestStep = Math.max(largestStep, Math.abs(now - angle));
      fastest = Math.max(fastest, Math.hypot(...sim.frame().bodies.link0!.w));
      angle = now;
    }
    console.log(`hinge 1 rad past its stop: largest turn a step ${(largestStep / h).toFixed(6)} rad/s, fastest |ω| after a step ${fastest.toExponential(2)} rad/s, angle after 1 s ${angle.toFixed(9)}`);
    expect(largestStep).toBeLessThanOrEqual(MAX_BIAS_VELOCITY * h * (1 + 1e-9));
    // The cap binds while far past the stop: the push is the second half of the step's drift–kick–drift (the
    // rig's 'verlet' integrator), 2 rad/s of turn a step here; uncapped it was 0.2·1 rad / h = 48 rad/s.
    expect(largestStep).toBeGreaterThan(0.49 * MAX_BIAS_VELOCITY * h);
    expect(fastest).toBeLessThan(1e-9);
    expect(angle).toBeGreaterThan(1 - 1e-6);
    expect(angle).toBeLessThan(1.4);
  });

  // tests/fixtures/stress/articulated-overlap-at-joint.rig.json: a random rig of the CI seed (1826048176),
  // reduced with the articulated solver: two capsules on ball joints at the same point of a free root, shapes
  // overlapping there, colliding with each other; gravity, no ground, dt 1/30 × 4 substeps. Nothing can push them
  // apart (they share the pivot), so every substep's push went into their spin: NaN within 0.2 s before.
  // A random rig of the CI seed (randomRigs.ts, 1826048311): a Generate-shaped creature of 11 capsules in zero
  // gravity, started overlapping with self-collision on, every joint a position drive holding the rest pose
  // that presses the bodies into each other. Each substep the push moved them apart through the joints and the
  // drives, keeping their bias in the relax, drove them back with real velocity: +1.5 J a piece, 100 m/s in 2 s.
  it('drives that hold two bodies into each other do not fight the push out (random rig 1826048311): still after the first pushes, no energy gained', () => {
    const { rig } = randomRig(1826048311, { solver: 'articulated' });
    const v = validateRig(rig);
    if (!v.ok) throw new Error(JSON.stringify(v.problems));
    const sim = createSimulation(v.rig), steps = Math.round(2 / sim.dt);
    let early = 0, late = 0, contacts = 0;
    for (let s = 0; s < steps; s++) {
      sim.step();
      const f = sim.frame();
      let fastest = 0;
      for (const n of sim.bodyNames) fastest = Math.max(fastest, Math.hypot(...f.bodies[n]!.v));
      if (s < steps / 2) early = Math.max(early, fastest); else late = Math.max(late, fastest);
      contacts += sim.world.getContacts().length;
    }
    console.log(`1826048311, 2 s: fastest body ${early.toFixed(3)} m/s in the first second, ${late.toExponential(2)} m/s in the second; ${contacts} contacts in ${steps} steps`);
    expect(contacts).toBeGreaterThan(steps); // the overlaps stay: the pushes go on all along
    expect(early).toBeLessThan(3); // the pushes' own bound (MAX_PUSH_VELOCITY) and the drives settling
    expect(late).toBeLessThan(0.1);
  }, 120_000);

  it('two capsules overlapping at their common joint on a falling root: the pushes keep no velocity (free fall, no spin), the joints exact', () => {
    const v = validateRig(JSON.parse(readFileSync(new URL('../../../fixtures/stress/articulated-overlap-at-joint.rig.json', import.meta.url), 'utf8')));
    if (!v.ok) throw new Error(JSON.stringify(v.problems));
    expect(v.rig.solver).toBe('articulated');
    const sim = createSimulation(v.rig), steps = Math.round(2 / sim.dt);
    let speed = 0, spin = 0, error = 0, contacts = 0;
    for (let s = 0; s < steps; s++) {
      sim.step();
      const f = sim.frame();
      for (const n of sim.bodyNames) { speed = Math.max(speed, Math.hypot(...f.bodies[n]!.v)); spin = Math.max(spin, Math.hypot(...f.bodies[n]!.w)); }
      for (const jt of v.rig.joints) error = Math.max(error, sim.world.getJointError(sim.jointHandle(jt.name)));
      contacts += sim.world.getContacts().length;
    }
    console.log(`overlap at a joint, 2 s: fastest ${speed.toFixed(6)} m/s (free fall ${(9.81 * 2).toFixed(2)}), spin ${spin.toExponential(2)} rad/s, joint error ${error.toExponential(2)} m, ${contacts} contacts in ${steps} steps`);
    expect(contacts).toBeGreaterThan(steps / 2); // they stay in contact: the pushes are there all along
    expect(speed).toBeLessThan(9.81 * 2 * 1.001);
    expect(spin).toBeLessThan(0.01);
    expect(error).toBeLessThan(1e-12);
  });
});
