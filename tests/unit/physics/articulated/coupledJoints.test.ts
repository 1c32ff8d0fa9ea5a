/**
 * Screw, cylindrical and planar joints in the articulated solver (issue 12 item 2): their motion subspaces
 * against closed forms, and a motor reaching its target and a limit holding on every DOF (drives.ts).
 */
import { describe, expect, it } from 'vitest';
import { articulatedFromRig, drivesFromRig, stepWithDrives, type JointDrive } from '../../../../shared/physics/articulated';
import { FRAME_X_UP, FRAME_X_Z, pairRig } from '../coupledRigs';

const h = 1 / 240;
const FRAME_X_DOWN: [number, number, number, number] = [0, 0, -Math.SQRT1_2, Math.SQRT1_2]; // frame X = world −Y
const pd = (kp: number, kv: number, max: number) => ({ mode: 'pd', target: { source: 'rest' }, maxTorque: max, errorReduction: 0.5, stiffness: kp, damping: kv, frictionTorque: 0 });
const position = (max: number) => ({ mode: 'position', target: { source: 'rest' }, maxTorque: max, errorReduction: 0.5, stiffness: 0, damping: 0, frictionTorque: 0 });
const velocity = (v: number, max: number) => ({ mode: 'velocity', target: { source: 'rest', velocity: v }, maxTorque: max, errorReduction: 0.5, stiffness: 0, damping: 0, frictionTorque: 0 });

/** The part's pose: anchor position (world) and rotation matrix (row-major, body → world). */
function pose(a: ReturnType<typeof articulatedFromRig>) { return a.model.poses()[0]!; }

describe('screw joint (articulated solver)', () => {
  it('offset along the axis = pitch × angle within 1e-9 m over 2 s of falling; q̈ = −m g p/(I + m p²) exactly', () => {
    const pitch = 0.02;
    const a = articulatedFromRig(pairRig({ frame: FRAME_X_UP, joint: { type: 'screw', pitch } }));
    const m = 2, I = (m / 12) * (0.4 ** 2 + 0.2 ** 2); // the box about world Y (its centre is the anchor)
    expect(a.model.nv).toBe(1);
    const qdd = a.model.forwardDynamics()[0]!;
    expect(Math.abs(qdd / ((-m * 9.81 * pitch) / (I + m * pitch * pitch)) - 1)).toBeLessThan(1e-12);
    let worst = 0, theta = 0;
    for (let s = 0; s < 480; s++) {
      a.model.step(h);
      const p = pose(a);
      // The angle about world Y from the rotation (unwrapped against the last one), the offset from the anchor.
      const raw = Math.atan2(p.R[2]!, p.R[0]!);
      theta += Math.atan2(Math.sin(raw - theta), Math.cos(raw - theta));
      worst = Math.max(worst, Math.abs((p.position[1] - 2) - pitch * theta), Math.hypot(p.position[0], p.position[2]));
    }
    expect(worst).toBeLessThan(1e-9);
    expect(theta).toBeLessThan(-10); // it turned (and so fell) a long way: 2 s at q̈ ≈ −113 rad/s²
  });

  it('a pd motor turns it to its target (the offset follows) and the angle limit holds it against gravity', () => {
    const pitch = 0.05;
    const driven = articulatedFromRig(pairRig({ frame: FRAME_X_UP, gravity: [0, 0, 0], joint: { type: 'screw', pitch, motor: pd(50, 10, 50) } }));
    const { drives } = drivesFromRig(pairRig({ frame: FRAME_X_UP, gravity: [0, 0, 0], joint: { type: 'screw', pitch, motor: pd(50, 10, 50) } }), driven);
    drives[0]!.target = 1.2;
    for (let s = 0; s < 5 * 240; s++) stepWithDrives(driven.model, drives, h);
    expect(Math.abs(driven.model.q[0]! - 1.2)).toBeLessThan(1e-3);
    expect(Math.abs((pose(driven).position[1] - 2) - pitch * driven.model.q[0]!)).toBeLessThan(1e-12);

    const rig = pairRig({ frame: FRAME_X_UP, joint: { type: 'screw', pitch, limit: [-0.5, 0.5] } });
    const held = articulatedFromRig(rig), hd = drivesFromRig(rig, held).drives;
    let lowest = Infinity;
    for (let s = 0; s < 3 * 240; s++) { stepWithDrives(held.model, hd, h); lowest = Math.min(lowest, held.model.q[0]!); }
    expect(lowest).toBeGreaterThan(-0.5 - 0.01);
    expect(Math.abs(held.model.q[0]! - -0.5)).toBeLessThan(1e-3);
  });
});

describe('cylindrical joint (articulated solver)', () => {
  it('a pendulum sliding along its horizontal axis keeps the axis exactly and slides at its start speed', () => {
    const a = articulatedFromRig(pairRig({ frame: FRAME_X_Z, centre: [0.3, 0, 0], joint: { type: 'cylindrical' } }));
    expect(a.model.nv).toBe(2);
    const v0 = 0.4;
    a.model.qd[1] = v0;
    let off = 0, tilt = 0, slide = 0;
    for (let s = 1; s <= 480; s++) {
      a.model.step(h);
      const p = pose(a);
      off = Math.max(off, Math.hypot(p.position[0], p.position[1] - 2));
      tilt = Math.max(tilt, Math.hypot(p.R[2]!, p.R[5]!)); // the body's Z axis (world) stays world Z
      slide = Math.max(slide, Math.abs(p.position[2] - v0 * s * h));
    }
    expect(off).toBeLessThan(1e-12);
    expect(tilt).toBeLessThan(1e-12);
    expect(slide).toBeLessThan(1e-12);
    expect(Math.abs(a.model.q[0]!)).toBeGreaterThan(0.5); // it swung
  });

  it('the rotation velocity motor and the slide pd motor reach their targets; the slide and angle limits hold', () => {
    const rig = pairRig({ frame: FRAME_X_Z, gravity: [0, 0, 0], joint: { type: 'cylindrical', motor: velocity(2, 20), slideMotor: pd(400, 60, 200) } });
    const a = articulatedFromRig(rig), { drives } = drivesFromRig(rig, a);
    expect(drives.map((d) => d.dof ?? 0)).toEqual([0, 1]);
    drives[1]!.target = 0.3;
    let r = stepWithDrives(a.model, drives, h);
    for (let s = 1; s < 4 * 240; s++) r = stepWithDrives(a.model, drives, h);
    expect(Math.abs(a.model.qd[0]! - 2)).toBeLessThan(1e-9);
    expect(Math.abs(a.model.q[1]! - 0.3)).toBeLessThan(1e-3);
    expect(r.motorTorque[1]!).toBeLessThan(200);

    // Axis down with gravity along it: the slide limit stops the fall; a spin runs onto the angle limit.
    const lrig = pairRig({ frame: FRAME_X_DOWN, joint: { type: 'cylindrical', limit: [-0.4, 0.4], slideLimit: [-0.2, 0.25] } });
    const held = articulatedFromRig(lrig), hd = drivesFromRig(lrig, held).drives;
    held.model.qd[0] = 3;
    let maxSlide = -Infinity, maxAngle = 0;
    for (let s = 0; s < 3 * 240; s++) {
      stepWithDrives(held.model, hd, h);
      maxSlide = Math.max(maxSlide, held.model.q[1]!); maxAngle = Math.max(maxAngle, Math.abs(held.model.q[0]!));
    }
    expect(maxSlide).toBeLessThan(0.25 + 0.005);
    expect(Math.abs(held.model.q[1]! - 0.25)).toBeLessThan(1e-3);
    expect(maxAngle).toBeLessThan(0.4 + 0.02);
  });
});

describe('planar joint (articulated solver)', () => {
  it('keeps the body in its plane (1e-9 m) and its centre falls freely in it while it spins (RK4, 1e-9 m)', () => {
    const a = articulatedFromRig(pairRig({ frame: FRAME_X_Z, centre: [0.2, 0, 0], joint: { type: 'planar' } }), { integrator: 'rk4' });
    expect(a.model.nv).toBe(3);
    // θ̇ = 3 rad/s about world Z, the anchor moving 0.5 m/s along frame Y (world Y) and 0.2 along frame Z (world −X).
    a.model.qd.set([3, 0.5, 0.2]);
    const c0 = a.model.centreOfMass(0), v0 = [-0.2, 0.5 + 3 * 0.2, 0];
    let off = 0, fall = 0, spin = 0;
    for (let s = 1; s <= 480; s++) {
      a.model.step(h);
      const t = s * h, c = a.model.centreOfMass(0), p = pose(a);
      off = Math.max(off, Math.abs(p.position[2]), Math.abs(c[2]), Math.hypot(p.R[2]!, p.R[5]!));
      fall = Math.max(fall, Math.abs(c[0] - (c0[0] + v0[0]! * t)), Math.abs(c[1] - (c0[1] + v0[1]! * t - 0.5 * 9.81 * t * t)));
      spin = Math.max(spin, Math.abs(a.model.q[0]! - 3 * t));
    }
    expect(off).toBeLessThan(1e-9);
    expect(fall).toBeLessThan(1e-9);
    expect(spin).toBeLessThan(1e-9);
  });

  it('the rotation motor and both slide motors reach their targets against gravity; the slide and angle limits hold', () => {
    const rig = pairRig({ frame: FRAME_X_Z, joint: { type: 'planar', motor: pd(30, 6, 30), slideMotor: position(200) } });
    const a = articulatedFromRig(rig), { drives } = drivesFromRig(rig, a);
    expect(drives.map((d) => d.dof ?? 0)).toEqual([0, 1, 2]);
    drives[0]!.target = -0.7; drives[1]!.target = 0.2; drives[2]!.target = -0.1;
    let r = stepWithDrives(a.model, drives, h);
    for (let s = 1; s < 5 * 240; s++) r = stepWithDrives(a.model, drives, h);
    expect(Math.abs(a.model.q[0]! - -0.7)).toBeLessThan(1e-3);
    expect(Math.abs(a.model.q[1]! - 0.2)).toBeLessThan(1e-3);
    expect(Math.abs(a.model.q[2]! - -0.1)).toBeLessThan(1e-3);
    expect(Math.abs(r.motorTorque[1]! / (2 * 9.81) - 1)).toBeLessThan(0.01); // the Y slide carries the weight

    const lrig = pairRig({ frame: FRAME_X_Z, centre: [0.2, 0, 0], joint: { type: 'planar', limit: [-0.3, 0.3], slideLimitY: [-0.15, 1], slideLimitZ: [-1, 0.1] } });
    const held = articulatedFromRig(lrig), hd: JointDrive[] = drivesFromRig(lrig, held).drives;
    held.model.qd.set([0, 0, 1]);
    let lowY = Infinity, highZ = -Infinity, worstAngle = 0;
    for (let s = 0; s < 3 * 240; s++) {
      stepWithDrives(held.model, hd, h);
      lowY = Math.min(lowY, held.model.q[1]!); highZ = Math.max(highZ, held.model.q[2]!); worstAngle = Math.max(worstAngle, Math.abs(held.model.q[0]!));
    }
    expect(lowY).toBeGreaterThan(-0.15 - 0.005);
    expect(highZ).toBeLessThan(0.1 + 0.005);
    expect(worstAngle).toBeLessThan(0.3 + 0.02);
    expect(Math.abs(held.model.q[1]! - -0.15)).toBeLessThan(2e-3);
  });
});
