/**
 * Motors and limits in the articulated solver (issue 12 item "motors with the same modes and τmax
 * semantics"): a 1 kg, 1 m rod held horizontal about its end (gravity torque m·g·d = 4.905 N·m).
 */
import { describe, expect, it } from 'vitest';
import { quatToRotationVector } from '../../../../shared/math/quat';
import { articulatedFromRig, drivesFromRig, quatMat, stepWithDrives, type JointDrive } from '../../../../shared/physics/articulated';
import { swingTwist } from '../../../../shared/physics/swingTwist';
import { twoBodyRig } from '../../export/testRigs';
import { chainRig } from './rigs';

const h = 1 / 240, G = 9.81 * 0.5;

function lever(drive: Partial<JointDrive>) {
  const a = articulatedFromRig(chainRig({ links: 1, angles: [Math.PI / 2] }));
  const I = a.model.bodies[0]!.inertia[14]!; // about the pivot, about z
  const d: JointDrive = { body: 0, mode: 'off', maxTorque: 0, errorReduction: 0.5, stiffness: 0, damping: 0, frictionTorque: 0, target: 0, targetVelocity: 0, limit: null, ...drive };
  return { model: a.model, I, d };
}

describe('articulated drives', () => {
  it('velocity motor within τmax reaches its target velocity in one step', () => {
    const { model, d } = lever({ mode: 'velocity', maxTorque: 1000, targetVelocity: 1.5 });
    stepWithDrives(model, [d], h);
    expect(model.qd[0]).toBeCloseTo(1.5, 12);
  });

  it('a saturated position motor gives exactly τmax: q̈ = (τmax − m·g·d)/I', () => {
    const { model, I, d } = lever({ mode: 'position', maxTorque: 3 });
    const r = stepWithDrives(model, [d], h);
    expect(r.motorTorque[0]).toBeCloseTo(3, 12);
    expect(model.qd[0]! / h).toBeCloseTo((3 - G) / I, 10);
  });

  it('a position motor with τmax above the load holds the lever; its torque is the gravity torque', () => {
    const { model, d } = lever({ mode: 'position', maxTorque: 10 });
    let r = stepWithDrives(model, [d], h);
    for (let s = 1; s < 480; s++) r = stepWithDrives(model, [d], h);
    expect(Math.abs(model.q[0]!)).toBeLessThan(1e-3);
    expect(Math.abs(r.motorTorque[0]! / (G * Math.cos(model.q[0]!)) - 1)).toBeLessThan(0.01);
  });

  it('pd motor settles where kp·(θd − θ) balances gravity', () => {
    const kp = 100;
    const { model, d } = lever({ mode: 'pd', maxTorque: 1000, stiffness: kp, damping: 10 });
    for (let s = 0; s < 10 * 240; s++) stepWithDrives(model, [d], h);
    let qs = 0; // kp·(0 − q) = m g d cos q
    for (let i = 0; i < 50; i++) qs = -G * Math.cos(qs) / kp;
    expect(Math.abs(model.q[0]! - qs)).toBeLessThan(1e-6);
  });

  it('off: joint friction above the load holds it still; below it, q̈ = (friction − m·g·d)/I', () => {
    const hold = lever({ frictionTorque: 6 });
    for (let s = 0; s < 240; s++) stepWithDrives(hold.model, [hold.d], h);
    expect(Math.abs(hold.model.q[0]!)).toBeLessThan(1e-12);
    const slip = lever({ frictionTorque: 3 });
    stepWithDrives(slip.model, [slip.d], h);
    expect(slip.model.qd[0]! / h).toBeCloseTo((3 - G) / slip.I, 10);
  });

  it('a rig hinge limit (rest angle 0.5 rad, limit [−0.2, 1]) stops the swing at −0.2 rad', () => {
    const rig = twoBodyRig({ name: 'limited', angle: 0.5, shapeAxis: 'y', centre: [0, -0.5, 0], motor: {}, limit: [-0.2, 1] });
    const a = articulatedFromRig(rig);
    const { drives, unsupported } = drivesFromRig(rig, a);
    expect(unsupported).toEqual([]);
    expect(drives[0]!.limit![0]).toBeCloseTo(-0.7, 12); // the rig's −0.2 from a rest angle of 0.5
    let lowest = Infinity, limitTorque = 0;
    for (let s = 0; s < 480; s++) {
      const r = stepWithDrives(a.model, drives, h);
      lowest = Math.min(lowest, a.model.q[0]! + 0.5);
      limitTorque = Math.max(limitTorque, r.limitTorque[0]!);
    }
    expect(lowest).toBeGreaterThan(-0.2 - 1e-9);
    expect(lowest).toBeLessThan(-0.2 + 1e-6);
    expect(limitTorque).toBeGreaterThan(0);
  });

  it('limits on a 3-link chain hold every joint in range while the chain swings', () => {
    const rig = chainRig({ links: 3, angles: [1.4, 0, 0], limit: [-0.3, 0.3] });
    const a = articulatedFromRig(rig);
    const { drives } = drivesFromRig(rig, a);
    expect(drives.length).toBe(3);
    let worst = 0;
    for (let s = 0; s < 480; s++) {
      stepWithDrives(a.model, drives, h);
      for (let i = 1; i < 3; i++) worst = Math.max(worst, Math.abs(a.model.q[i]!) - 0.3);
    }
    console.log(`3-link chain with ±0.3 rad limits: worst excursion past a limit ${worst.toExponential(2)} rad`);
    // Measured 2.6e-5 rad with 100 row-by-row Gauss-Seidel sweeps (7.3e-3 with 8, 3.9e-4 with 50); 1.7e-16 rad
    // since the rows are solved on their Delassus matrix with Newton steps (delassus.ts).
    expect(worst).toBeLessThan(1e-4);
  });

  it('ball motor: saturated at τmax about the swing axis, holds above the load', () => {
    const mk = (maxTorque: number) => {
      const a = articulatedFromRig(chainRig({ links: 1, joint: 'ball', angles: [Math.PI / 2] }));
      const d: JointDrive = { body: 0, mode: 'position', maxTorque, errorReduction: 0.5, stiffness: 0, damping: 0, frictionTorque: 0, target: 0, targetVelocity: 0, limit: null };
      return { a, d, I: a.model.bodies[0]!.inertia[14]! };
    };
    const sat = mk(3);
    const r = stepWithDrives(sat.a.model, [sat.d], h);
    // The joint frame's X is world z, the swing axis: q̇ = (h·(τmax − m g d)/I, 0, 0).
    expect(sat.a.model.qd[0]! / h).toBeCloseTo((3 - G) / sat.I, 10);
    expect(Math.abs(sat.a.model.qd[1]!) + Math.abs(sat.a.model.qd[2]!)).toBeLessThan(1e-12);
    expect(r.motorTorque[0]).toBeCloseTo(3, 12);
    const hold = mk(10);
    for (let s = 0; s < 480; s++) stepWithDrives(hold.a.model, [hold.d], h);
    const q = hold.a.model.q;
    expect(2 * Math.asin(Math.min(1, Math.hypot(q[0]!, q[1]!, q[2]!)))).toBeLessThan(1e-3);
  });

  it('ball motor torqueLimit: perAxis lets ‖τ‖ reach √2·τmax on a diagonal error, magnitude keeps ‖τ‖ = τmax', () => {
    const run = (torqueLimit: 'perAxis' | 'magnitude') => {
      const a = articulatedFromRig(chainRig({ links: 1, joint: 'ball', angles: [0] }), { gravity: [0, 0, 0] });
      const s = Math.sin(0.25) / Math.SQRT2;
      const d: JointDrive = { body: 0, mode: 'position', maxTorque: 0.5, errorReduction: 0.5, stiffness: 0, damping: 0, frictionTorque: 0, target: 0, targetVelocity: 0, limit: null, targetRotation: [0, s, s, Math.cos(0.25)], torqueLimit };
      return stepWithDrives(a.model, [d], h).motorTorque[0]!;
    };
    expect(run('perAxis')).toBeCloseTo(0.5 * Math.SQRT2, 9);
    expect(run('magnitude')).toBeCloseTo(0.5, 9);
  });

  it('ball twist limit and swing cone (elliptical) hold, measured by the rigid ball joint\'s swingTwist', () => {
    const st = new Float64Array(3);
    const angles = (q: Float64Array) => { swingTwist(st, q[0]!, q[1]!, q[2]!, q[3]!); return [st[0]!, Math.hypot(st[1]!, st[2]!)] as const; };
    // Twist: chainRig's frame X is world z, so a pendulum released at 60° turns about frame X.
    {
      const rig = chainRig({ links: 1, joint: 'ball', angles: [Math.PI / 3] });
      const a = articulatedFromRig(rig);
      const { drives } = drivesFromRig(rig, a);
      drives[0]!.twistLimit = [-0.5, 0.5];
      let most = 0;
      for (let s = 0; s < 480; s++) { stepWithDrives(a.model, drives, h); most = Math.max(most, Math.abs(angles(a.model.q)[0])); }
      expect(most).toBeLessThan(0.5 + 1e-6);
      expect(most).toBeGreaterThan(0.5 - 1e-3);
    }
    // Swing: hanging straight down, kicked at 3 rad/s about world x = −(frame Z): a swing about frame Z.
    for (const [limit, bound] of [[[0.3, 0.3], 0.3], [[0.3, 0.6], 0.6]] as const) {
      const rig = chainRig({ links: 1, joint: 'ball', angles: [0] });
      const a = articulatedFromRig(rig);
      const { drives } = drivesFromRig(rig, a);
      drives[0]!.swingLimit = limit;
      a.model.qd.set([0, 0, -3]);
      let most = 0;
      for (let s = 0; s < 480; s++) { stepWithDrives(a.model, drives, h); most = Math.max(most, angles(a.model.q)[1]); }
      console.log(`swing cone ${JSON.stringify(limit)}: largest swing ${most.toFixed(6)} rad`);
      expect(most).toBeLessThan(bound + 1e-4);
      expect(most).toBeGreaterThan(bound - 1e-3);
    }
  });

  it('ball position motor drives a large rotation (1.2 rad about a skew axis) to its target without gravity', () => {
    const a = articulatedFromRig(chainRig({ links: 1, joint: 'ball', angles: [0] }), { gravity: [0, 0, 0] });
    const axis = [0.3, 0.8, -0.52], l = Math.hypot(...axis), half = 0.6;
    const target = [axis[0]! / l * Math.sin(half), axis[1]! / l * Math.sin(half), axis[2]! / l * Math.sin(half), Math.cos(half)] as const;
    const d: JointDrive = { body: 0, mode: 'position', maxTorque: 20, errorReduction: 0.2, stiffness: 0, damping: 0, frictionTorque: 0, target: 0, targetVelocity: 0, limit: null, targetRotation: target };
    for (let s = 0; s < 480; s++) stepWithDrives(a.model, [d], h);
    const q = a.model.q;
    // Angle between q and the target.
    const dot = Math.abs(q[0]! * target[0] + q[1]! * target[1] + q[2]! * target[2] + q[3]! * target[3]);
    expect(2 * Math.acos(Math.min(1, dot))).toBeLessThan(1e-4);
    expect(Math.hypot(a.model.qd[0]!, a.model.qd[1]!, a.model.qd[2]!)).toBeLessThan(1e-3);
  });

  it('ball position motor rows are about frame A: from a turned start, one step gives ω_A = −r·ε/h exactly', () => {
    const a = articulatedFromRig(chainRig({ links: 1, joint: 'ball', angles: [0] }), { gravity: [0, 0, 0] });
    const q0 = [Math.sin(0.45) * 0.6, Math.sin(0.45) * 0.8, 0, Math.cos(0.45)];
    a.model.q.set(q0);
    const d: JointDrive = { body: 0, mode: 'position', maxTorque: 1e4, errorReduction: 0.3, stiffness: 0, damping: 0, frictionTorque: 0, target: 0, targetVelocity: 0, limit: null, targetRotation: [0, 0, 0, 1], maxSpeed: 1e3 }; // the request unbounded (motor maxSpeed)
    stepWithDrives(a.model, [d], h);
    const R = quatMat(q0), w = a.model.qd; // ω_A = R(q)·ω_child
    const wA = [0, 1, 2].map((k) => R[3 * k]! * w[0]! + R[3 * k + 1]! * w[1]! + R[3 * k + 2]! * w[2]!);
    const eps = quatToRotationVector(q0 as [number, number, number, number]); // q·target⁻¹ with target = identity
    for (let k = 0; k < 3; k++) expect(wA[k]).toBeCloseTo(-0.3 * eps[k]! / h, 6);
  });
});
