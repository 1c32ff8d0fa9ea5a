/**
 * Switching a joint's motor to PD when it has no gains (every generated joint: kp = kv = 0, which the
 * schema refuses for PD) fills in the Stiff preset's response — critically damped at ω = r/dt — as gains
 * through the joint's effective inertia, in one edit. Checked on the shipped Armed Mine rig (position
 * drives without gains; a generated rig's motors are PD with gains already).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { frequencyFromPdGains, jointEffectiveInertia, setMotor } from '../../../shared/authoring';
import { loadRig, type RigDocument, type RigJoint, type RigMotor } from '../../../shared/rig';
import { motorModeChange, startingPdGains, stiffResponse } from '../../../renderer/src/authoring/pdStart';

const rig: RigDocument = loadRig(JSON.parse(readFileSync(new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url), 'utf8')), { source: 'armed-mine.rig.json' });
type MotorJoint = Extract<RigJoint, { motor: RigMotor }>;
const joint = (name: string) => rig.joints.find((j) => j.name === name) as MotorJoint;

describe('starting PD gains', () => {
  it('the Stiff preset (position drive, r = 0.8) answers like a critically damped PD at ω = r/dt', () => {
    const s = stiffResponse(joint('elbow').motor, 1 / 60);
    expect(s.frequencyHz).toBeCloseTo((0.8 * 60) / (2 * Math.PI), 9); // 7.639 Hz
    expect(s.dampingRatio).toBe(1);
    expect(stiffResponse(joint('elbow').motor, 1 / 120).frequencyHz).toBeCloseTo(2 * s.frequencyHz, 9);
    expect(() => stiffResponse(joint('elbow').motor, 0)).toThrow(/simulation\.dt must be > 0 s/);
  });

  it('kp = I·ω², kv = 2·I·ω with the joint\'s effective inertia, for a hinge (elbow) and a ball joint (shoulder)', () => {
    const w = 0.8 / rig.simulation.dt;
    for (const name of ['elbow', 'shoulder']) {
      const j = joint(name);
      const I = jointEffectiveInertia(rig, j);
      const g = startingPdGains(rig, j);
      expect(g.inertia).toBe(I);
      expect(g.stiffness / (I * w * w)).toBeCloseTo(1, 5);
      expect(g.damping / (2 * I * w)).toBeCloseTo(1, 5);
      // Read back through the inspector's frequency fields: the same 7.64 Hz, ζ = 1.
      const back = frequencyFromPdGains(g, I);
      expect(back.frequencyHz).toBeCloseTo((0.8 * 60) / (2 * Math.PI), 4);
      expect(back.dampingRatio).toBeCloseTo(1, 4);
    }
    // Same response everywhere: the gains scale with each joint's inertia (a finger and a hip alike).
    const shoulder = startingPdGains(rig, joint('shoulder')), elbow = startingPdGains(rig, joint('elbow'));
    expect(shoulder.inertia).not.toBeCloseTo(elbow.inertia, 6);
    expect((shoulder.stiffness / elbow.stiffness) / (shoulder.inertia / elbow.inertia)).toBeCloseTo(1, 5);
  });

  it('the mode switch carries the gains in the same edit, which the rig accepts; PD alone is refused', () => {
    const j = joint('elbow');
    expect(j.motor.stiffness).toBe(0);
    expect(j.motor.damping).toBe(0);
    const refused = setMotor(rig, j.name, { mode: 'pd' });
    expect(refused.ok).toBe(false);

    const change = motorModeChange(rig, j, 'pd');
    expect(change.patch.mode).toBe('pd');
    expect(change.patch.stiffness).toBeGreaterThan(0);
    expect(change.patch.damping).toBeGreaterThan(0);
    expect(change.note).toMatch(/Stiff preset's response: 7\.64 Hz, ζ = 1 → kp [\d.]+ N·m\/rad, kv [\d.]+ N·m·s\/rad/);
    const done = setMotor(rig, j.name, change.patch);
    expect(done.ok).toBe(true);
    const motor = (done.ok ? done.rig.joints.find((x) => x.name === j.name) as MotorJoint : j).motor;
    expect(motor.mode).toBe('pd');
    expect(motor.stiffness).toBe(change.patch.stiffness);
  });

  it('gains already set are kept, and other modes change only the mode', () => {
    const tuned = { ...joint('elbow'), motor: { ...joint('elbow').motor, stiffness: 12, damping: 0.5 } } as MotorJoint;
    expect(motorModeChange(rig, tuned, 'pd')).toEqual({ patch: { mode: 'pd' }, note: null });
    expect(motorModeChange(rig, joint('elbow'), 'velocity')).toEqual({ patch: { mode: 'velocity' }, note: null });
    expect(motorModeChange(rig, joint('elbow'), 'off')).toEqual({ patch: { mode: 'off' }, note: null });
  });
});
