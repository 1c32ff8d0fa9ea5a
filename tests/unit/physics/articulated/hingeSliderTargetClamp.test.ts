/**
 * A hinge's or slider's drive target outside the joint's limit is clamped into it (docs/rig-format.md "Hinge,
 * mode position"; shared/physics/driveTarget.ts clampedDriveError, as Jolt's HingeConstraint::SetTargetAngle and
 * SliderConstraint::SetTargetPosition) by both solvers: the joint settles on the limit with the drive no longer
 * pressing against the stop. The range is widened to the current value when the joint starts past its stop, so
 * the stop alone brings it back and the drive does not strike across the range.
 * A 1 kg capsule (1 m, radius 0.25 m) under a static base, zero g, 4 s at 1/240 s; position drive τmax 5 N·m
 * (N for the slider), r = 0.3, or pd kp 20, kv 2.
 */
import { describe, expect, it } from 'vitest';
import type { RigDocument } from '../../../../shared/rig';
import { createSimulation } from '../../../../shared/runtime';
import { clampedDriveError } from '../../../../shared/physics/driveTarget';
import { chainRig } from './rigs';

type Solver = 'rigid' | 'articulated';
interface Case { joint: 'hinge' | 'prismatic'; limit: [number, number]; mode: 'position' | 'pd'; maxTorque?: number }

function rig(c: Case, solver: Solver): RigDocument {
  const base = chainRig({ links: 1, joint: 'hinge', angles: [0], radius: 0.25 });
  const j = base.joints[0]!;
  if (j.type !== 'hinge') throw new Error('chainRig gave no hinge joint');
  const motor = c.mode === 'position'
    ? { ...j.motor, mode: 'position' as const, maxTorque: c.maxTorque ?? 5, errorReduction: 0.3 }
    : { ...j.motor, mode: 'pd' as const, maxTorque: 5, stiffness: 20, damping: 2 };
  const joint = { ...j, type: c.joint, limit: c.limit, motor } as RigDocument['joints'][number];
  return { ...base, solver, joints: [joint], simulation: { ...base.simulation, gravity: [0, 0, 0] } };
}

/** Run 4 s toward `target`: the joint's value at the end, its least and greatest value on the way, and the motor's |τ| of the last step. */
function settle(r: RigDocument, target: number): { end: number; min: number; max: number; torque: number; saturated: boolean } {
  const sim = createSimulation(r);
  sim.setMotorTargets({ j0: target });
  const jh = sim.jointHandle('j0');
  let min = Infinity, max = -Infinity;
  for (let s = 0; s < 960; s++) {
    sim.step();
    const x = sim.world.getJointAngle(jh) as number;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const report = sim.world.getMotorReport(jh);
  return { end: sim.world.getJointAngle(jh) as number, min, max, torque: Math.abs(report.torque), saturated: report.saturated };
}

describe('a hinge\'s or slider\'s drive target is clamped into its limit on both solvers', () => {
  const cases = [
    { name: 'hinge position drive, target 0.9 rad past a [−0.4, 0.4] limit', c: { joint: 'hinge', limit: [-0.4, 0.4], mode: 'position' }, target: 0.9, expected: 0.4 },
    { name: 'hinge pd drive, target −0.9 rad past a [−0.4, 0.4] limit', c: { joint: 'hinge', limit: [-0.4, 0.4], mode: 'pd' }, target: -0.9, expected: -0.4 },
    { name: 'slider position drive, target 0.3 m past a [−0.1, 0.1] limit', c: { joint: 'prismatic', limit: [-0.1, 0.1], mode: 'position' }, target: 0.3, expected: 0.1 },
    { name: 'slider pd drive, target −0.3 m past a [−0.1, 0.1] limit', c: { joint: 'prismatic', limit: [-0.1, 0.1], mode: 'pd' }, target: -0.3, expected: -0.1 },
    // Started past the stop: the limit excludes the rest pose (0) and the target lies beyond the near stop, so
    // the target is the current value until the stop has brought the joint to 0.4 rad (0.1 m); the drive must
    // not carry it on across the range toward the far stop. τmax 50: with the target clamped to the near stop
    // without the widening, the drive pushes along with the stop and the rigid hinge reaches 0.54 rad (the
    // slider 0.134 m); with τmax 5 the stop's own push-back alone takes the slider to 0.2001 m either way.
    { name: 'hinge started past a [0.4, 0.8] limit, target −0.9 rad', c: { joint: 'hinge', limit: [0.4, 0.8], mode: 'position', maxTorque: 50 }, target: -0.9, expected: 0.4 },
    { name: 'slider started past a [0.1, 0.2] limit, target −0.3 m', c: { joint: 'prismatic', limit: [0.1, 0.2], mode: 'position', maxTorque: 50 }, target: -0.3, expected: 0.1 },
    { name: 'hinge target inside the limit (used as it is)', c: { joint: 'hinge', limit: [-0.4, 0.4], mode: 'position' }, target: 0.25, expected: 0.25 },
  ] as const;
  for (const k of cases) {
    it(`${k.name}: rigid and articulated settle at ${k.expected}, the drive not saturated against the stop`, () => {
      const c = { ...k.c, limit: [...k.c.limit] as [number, number] };
      const rigid = settle(rig(c, 'rigid'), k.target), art = settle(rig(c, 'articulated'), k.target);
      const [lo, hi] = c.limit, reach = (x: { min: number; max: number }) => Math.max(lo - x.min, x.max - hi, 0);
      console.log(`${k.name}: rigid ${rigid.end.toFixed(6)} (range ${rigid.min.toFixed(4)} … ${rigid.max.toFixed(4)}, |τ| ${rigid.torque.toExponential(2)}); articulated ${art.end.toFixed(6)} (range ${art.min.toFixed(4)} … ${art.max.toFixed(4)}, |τ| ${art.torque.toExponential(2)})`);
      expect(rigid.end).toBeCloseTo(k.expected, 4);
      expect(art.end).toBeCloseTo(k.expected, 4);
      // At rest on the limit: the drive no longer holds a force against the stop (5 without the clamp, saturated).
      for (const r of [rigid, art]) {
        expect(r.torque).toBeLessThan(1e-3);
        expect(r.saturated).toBe(false);
      }
      // Never past the stop by more than a small overshoot; started at 0 below a [0.4, 0.8] limit, the rigid
      // solver's joint never goes on toward the far end: within 0.002 rad (m) of the stop it settles on. (The
      // articulated solver's stop pushes back at limitErp·(lo − q)/h with no relax pass, and that push alone
      // carries the joint to the far stop, 0.8 rad / 0.2 m, with the clamp, without it, and with or without the
      // widening: its own matter, not the drive's.)
      if (lo > 0) expect(rigid.max).toBeLessThan(k.expected + 0.002);
      else for (const r of [rigid, art]) expect(reach(r)).toBeLessThan(c.joint === 'hinge' ? 0.02 : 0.002);
    });
  }

  it('clampedDriveError: inside the range C itself (bit for bit); past it the end the drive heads for; the range widened to the current value', () => {
    const C = -0.123456789e-3;
    expect(Object.is(clampedDriveError(0.3, C, -0.4, 0.4), C)).toBe(true);
    expect(clampedDriveError(0.3, 0.3 - 0.9, -0.4, 0.4)).toBeCloseTo(0.3 - 0.4, 15); // target 0.9 → 0.4
    expect(clampedDriveError(0.3, 0.3 + 0.9, -0.4, 0.4)).toBeCloseTo(0.3 + 0.4, 15); // target −0.9 → −0.4
    // Started at 0 below [0.4, 0.8]: a target −0.9 becomes the current value (C = 0); 1.2 becomes 0.8.
    expect(clampedDriveError(0, 0.9, 0.4, 0.8)).toBe(0);
    expect(clampedDriveError(0, -1.2, 0.4, 0.8)).toBeCloseTo(-0.8, 15);
    // No limit: ±∞ leave every target as it is.
    expect(clampedDriveError(0.2, 5, -Infinity, Infinity)).toBe(5);
  });
});
