import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dampingRatioForOvershoot, normalizedSettleTime, tuneRig } from '../../../shared/authoring/tune';
import { loadRig } from '../../../shared/rig';
import { createSimulation } from '../../../shared/runtime/simulation';
import type { RigDocument, RigJoint } from '../../../shared/rig/schema';
import { repo } from '../rig/corpus';

const rigAt = (p: string) => loadRig(readFileSync(`${repo}${p}`, 'utf8'));
type Hinge = Extract<RigJoint, { type: 'hinge' }>;
const hinge = (rig: RigDocument, name: string) => rig.joints.find((j) => j.name === name) as Hinge;

describe('second-order targets', () => {
  it('damping ratio from overshoot: 0 % → 1, 5 % → 0.690, 16.3 % → 0.5', () => {
    expect(dampingRatioForOvershoot(0)).toBe(1);
    expect(dampingRatioForOvershoot(5)).toBeCloseTo(0.6901, 3);
    expect(dampingRatioForOvershoot(16.3)).toBeCloseTo(0.5, 2);
    expect(() => dampingRatioForOvershoot(100)).toThrow(/overshoot/);
  });
  it('2 % settle time at ωn = 1: critically damped 5.83, ζ = 0.69 about 4/ζ', () => {
    expect(normalizedSettleTime(1)).toBeCloseTo(5.834, 2);
    const t = normalizedSettleTime(dampingRatioForOvershoot(5));
    expect(t).toBeGreaterThan(0.8 * 4 / 0.69);
    expect(t).toBeLessThan(1.2 * 4 / 0.69);
  });
});

describe('tuneRig', () => {
  it('humanoid, 0.3 s / 5 %: 11 of 12 joints settle within 20 %; the spine (carrying the flexing upper body) misses and says why', () => {
    const rig = rigAt('assets/creatures/humanoid.rig.json');
    const r = tuneRig(rig, { settle: 0.3, overshoot: 5 });
    expect(r.joints).toHaveLength(12);
    for (const j of r.joints) {
      expect(j.achieved, j.joint).not.toBeNull();
      if (j.ok) {
        expect(j.achieved!.settle, j.joint).not.toBeNull();
        expect(Math.abs(j.achieved!.settle! - 0.3) / 0.3, j.joint).toBeLessThanOrEqual(0.2);
        expect(j.achieved!.overshoot, j.joint).toBeLessThanOrEqual(7);
        expect(j.why).toBeNull();
      } else expect(j.why, j.joint).toMatch(/settled in|band|saturated|overshoot/);
    }
    const ok = r.joints.filter((j) => j.ok).map((j) => j.joint);
    expect(ok.length).toBe(11);
    expect(r.joints.filter((j) => !j.ok).map((j) => j.joint).sort()).toEqual(['spine']);
    // Knees and ankles hold the body up: their PD gains are set for that load (kp ≥ the toppling m·g·L).
    expect(r.joints.filter((j) => j.stance).map((j) => j.joint).sort()).toEqual(['foot_l', 'foot_r', 'shin_l', 'shin_r']);
    // PD gains follow kp + k_g = I·ω², kv = 2ζ·I·ω: the forearm (hanging below a held upper arm) e.g.
    const fore = r.joints.find((j) => j.joint === 'forearm_l')!;
    const w = normalizedSettleTime(dampingRatioForOvershoot(5)) / 0.3;
    expect(fore.params.damping).toBeCloseTo(2 * dampingRatioForOvershoot(5) * fore.inertia * w, 6);
    // The tuned rig carries the parameters; untouched fields stay.
    const tj = hinge(r.rig, 'forearm_l');
    expect(tj.motor.stiffness).toBe(fore.params.stiffness);
    expect(tj.motor.maxTorque).toBe(fore.params.maxTorque);
    expect(tj.motor.maxTorque).toBeGreaterThanOrEqual(2.5 * fore.staticTorque - 1e-9);
    expect(tj.limit).toEqual(hinge(rig, 'forearm_l').limit);
  });

  it('the tuned humanoid still stands: pelvis and head within 3 cm of their rest height after 5 s', () => {
    const tuned = tuneRig(rigAt('assets/creatures/humanoid.rig.json'), { settle: 0.3, overshoot: 5, verify: false }).rig;
    const sim = createSimulation(tuned);
    const pelvis0 = sim.bodyPose('pelvis').position[1], head0 = sim.bodyPose('head').position[1];
    for (let i = 0; i < 300; i++) sim.step();
    expect(sim.blowUp).toBeNull();
    expect(Math.abs(sim.bodyPose('pelvis').position[1] - pelvis0)).toBeLessThan(0.03);
    expect(Math.abs(sim.bodyPose('head').position[1] - head0)).toBeLessThan(0.03);
  });

  it('pendulum (position motors), 0.3 s: r = 1 − 0.02^(h/T); elbow and wrist within 20 %, the ball shoulder saturates at τmax', () => {
    const rig = rigAt('tests/fixtures/rigs/pendulum.rig.json');
    const r = tuneRig(rig, { settle: 0.3 });
    const h = rig.simulation.dt / rig.simulation.substeps;
    for (const j of r.joints) expect(j.params.errorReduction).toBeCloseTo(1 - Math.pow(0.02, h / 0.3), 6);
    const ok = r.joints.filter((j) => j.ok);
    expect(ok.map((j) => j.joint)).toEqual(['elbow', 'wrist']);
    for (const j of ok) expect(Math.abs(j.achieved!.settle! - 0.3) / 0.3).toBeLessThanOrEqual(0.2);
    const shoulder = r.joints.find((j) => j.joint === 'shoulder')!;
    expect(shoulder.achieved!.saturated).toBeGreaterThan(0);
    expect(shoulder.why).toMatch(/saturated at τmax/);
  });

  it('one joint by name; refuses a bad settle time, an unknown joint and an unmotorised one', () => {
    const rig = rigAt('tests/fixtures/rigs/pendulum.rig.json');
    expect(tuneRig(rig, { settle: 0.5, joints: ['wrist'] }).joints.map((j) => j.joint)).toEqual(['wrist']);
    expect(() => tuneRig(rig, { settle: 0 })).toThrow(/settle time must be a positive number/);
    expect(() => tuneRig(rig, { settle: Number.NaN })).toThrow(/settle time/);
    expect(() => tuneRig(rig, { settle: 0.3, joints: ['nope'] })).toThrow(/no joint "nope"/);
    const off = { ...rig, joints: rig.joints.map((j) => (j.name === 'wrist' && j.type !== 'fixed' ? { ...j, motor: { ...j.motor, mode: 'off' as const } } : j)) };
    expect(() => tuneRig(off, { settle: 0.3, joints: ['wrist'] })).toThrow(/motor mode "off"/);
  });
});
