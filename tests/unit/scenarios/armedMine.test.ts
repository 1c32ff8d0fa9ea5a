/**
 * Issue 5 "How it is checked": the Armed Mine crawls, steers, needs its torque, recovers from being blasted
 * into awkward poses and from a kick — run headless through the runtime (createSimulation + the cyclic-path
 * gait) on the shipped rig. The thresholds are the issue's; the rig is tuned to meet them, never the other
 * way round. Measured figures are in docs/locomotion.md.
 */
import { describe, expect, it } from 'vitest';
import { quatRotate } from '../../../shared/math/quat';
import type { Vec3 } from '../../../shared/math/vec3';
import type { RigDocument } from '../../../shared/rig';
import { blast, distanceTo, handOnFloor, headingError, jointReport, loadArmedMine, mineSimulation, type Mine } from './armedMineWorld';

const DEG = Math.PI / 180;
const stepsFor = (m: Mine, seconds: number) => Math.round(seconds / m.sim.dt);

describe('Armed Mine crawls to a target 5 m ahead', () => {
  it('gets ≥ 2 m closer in 20 s, heading within 20°, hand on the floor ≥ 30 % of the time, joints within 5 mm, torque within limits', () => {
    const m = mineSimulation();
    const target: Vec3 = [0, 0, 5];
    m.sim.setTarget(target);
    const start = distanceTo(m, target);
    let contact = 0, maxError = 0, overLimit: string | null = null;
    const n = stepsFor(m, 20);
    for (let i = 0; i < n; i++) {
      m.sim.step();
      if (handOnFloor(m)) contact++;
      const r = jointReport(m);
      maxError = Math.max(maxError, r.maxError);
      overLimit ??= r.overLimit;
    }
    expect(m.sim.blowUp).toBeNull();
    expect(start - distanceTo(m, target)).toBeGreaterThanOrEqual(2);
    expect(Math.abs(headingError(m, target))).toBeLessThanOrEqual(20 * DEG);
    expect(contact / n).toBeGreaterThanOrEqual(0.3);
    expect(maxError).toBeLessThanOrEqual(0.005);
    expect(overLimit).toBeNull();
  });
});

describe('Armed Mine steers toward a target 90° to the side', () => {
  it('turns its heading toward (5, 0, 0) within 10 s and is ≥ 1 m closer after 20 s', () => {
    const m = mineSimulation();
    const target: Vec3 = [5, 0, 0];
    m.sim.setTarget(target);
    const start = distanceTo(m, target);
    let turnedAt = Infinity;
    const n = stepsFor(m, 20);
    for (let i = 0; i < n; i++) {
      m.sim.step();
      if (turnedAt === Infinity && Math.abs(headingError(m, target)) <= 20 * DEG) turnedAt = m.sim.time;
    }
    expect(turnedAt).toBeLessThanOrEqual(10);
    expect(start - distanceTo(m, target)).toBeGreaterThanOrEqual(1);
  });
});

describe('torque limits matter', () => {
  it('with every τmax at 10 % the mine makes < 0.3 m of progress in 20 s, and no motor ever reports more than its limit', () => {
    const rig = loadArmedMine();
    const weak: RigDocument = {
      ...rig,
      joints: rig.joints.map((j) => (j.type === 'fixed' ? j : { ...j, motor: { ...j.motor, maxTorque: j.motor.maxTorque * 0.1 } })),
    };
    const m = mineSimulation(weak);
    const target: Vec3 = [0, 0, 5];
    m.sim.setTarget(target);
    const start = distanceTo(m, target);
    let overLimit: string | null = null, saturated = 0;
    const n = stepsFor(m, 20);
    for (let i = 0; i < n; i++) {
      m.sim.step();
      overLimit ??= jointReport(m).overLimit;
      if (Object.values(m.sim.frame().joints).some((j) => j.saturated)) saturated++;
    }
    expect(start - distanceTo(m, target)).toBeLessThan(0.3);
    expect(overLimit).toBeNull();
    expect(saturated / n).toBeGreaterThan(0.5); // the weak motors are pinned at their limit, not idle
  });
});

describe('recovers from being blasted into awkward poses (no recovery code: the same gait)', () => {
  it('in ≥ 7 of 10 seeded poses (one with the arm pinned under the body) it gets ≥ 0.5 m closer to the target within 15 s of the blast', () => {
    const rig = loadArmedMine();
    const results: string[] = [];
    let recovered = 0;
    for (let seed = 0; seed < 10; seed++) {
      const m = mineSimulation(rig);
      blast(m, rig, seed);
      const p = m.sim.bodyPose('body').position;
      const target: Vec3 = [p[0], 0, p[2] + 5];
      m.sim.setTarget(target);
      // Progress counts from where it lands (1 s after the blast), so the fall itself never counts.
      let start = 0, best = 0;
      const settle = stepsFor(m, 1), n = stepsFor(m, 15);
      for (let i = 0; i < n; i++) {
        m.sim.step();
        if (i + 1 < settle) continue;
        if (i + 1 === settle) start = distanceTo(m, target);
        best = Math.max(best, start - distanceTo(m, target));
        if (best >= 0.5) break;
      }
      const up = quatRotate(m.sim.bodyPose('body').rotation, [0, 1, 0]);
      results.push(`seed ${seed}: progress ${best.toFixed(2)} m in ${m.sim.time.toFixed(1)} s, upright ${up[1].toFixed(2)}`);
      if (best >= 0.5 && m.sim.blowUp === null) recovered++;
    }
    console.log(`recover: ${recovered}/10\n  ${results.join('\n  ')}`);
    expect(recovered).toBeGreaterThanOrEqual(7);
  });
});

describe('resumes after a kick', () => {
  it('knocked sideways mid-crawl, it is making progress toward the target again within 5 s', () => {
    const m = mineSimulation();
    const target: Vec3 = [0, 0, 8];
    m.sim.setTarget(target);
    for (let i = 0; i < stepsFor(m, 6); i++) m.sim.step();
    const mass = 30 + 2.5 + 1.5 + 0.6;
    m.sim.applyImpulse('body', [mass * 2.5, 0, 0]); // 2.5 m/s sideways for the whole creature
    const hit = m.sim.time;
    let knockedTo = distanceTo(m, target), resumedAt = Infinity;
    for (let i = 0; i < stepsFor(m, 5); i++) {
      m.sim.step();
      const d = distanceTo(m, target);
      knockedTo = Math.max(knockedTo, m.sim.time - hit < 1 ? d : knockedTo);
      // Resumed = 0.3 m closer than the worst distance after the knock.
      if (resumedAt === Infinity && knockedTo - d >= 0.3) resumedAt = m.sim.time - hit;
    }
    expect(m.sim.blowUp).toBeNull();
    expect(resumedAt).toBeLessThanOrEqual(5);
  });
});
