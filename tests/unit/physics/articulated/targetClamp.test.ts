/**
 * A ball drive's target outside the joint's twist range or swing cone is clamped into them (docs/rig-format.md
 * "Ball, mode position"; shared/physics/swingTwist.ts clampSwingTwistTarget) by both solvers, so the same rig
 * settles at the same pose on the rigid and the articulated solver: on the limit, with the drive no longer
 * pressing against the stop. A 1 kg capsule (1 m, radius 0.25 m) on a ball joint under a static base, zero g,
 * position drive τmax 5 N·m, r = 0.3, 4 s at 1/240 s.
 * Without the clamp the articulated solver held the twist case at 0.4 rad with the motor saturated (5 N·m for
 * good), wandered along the cone in the swing case (twist −0.33 … 0.01 rad, ‖τ‖ up to 8.66 N·m after 4 s), and
 * stuck at swing (0.155, 0.428) rad, ‖τ‖ 7.88 N·m, in the combined case.
 */
import { describe, expect, it } from 'vitest';
import { quatFromAxisAngle, type Quat } from '../../../../shared/math/quat';
import type { RigDocument } from '../../../../shared/rig';
import { createSimulation } from '../../../../shared/runtime';
import { clampSwingTwistTarget, swingTwist } from '../../../../shared/physics/swingTwist';
import { chainRig } from './rigs';

function rig(twistLimit: [number, number] | null, swingLimit: [number, number] | null, solver: 'rigid' | 'articulated', radius = 0.25): RigDocument {
  const base = chainRig({ links: 1, joint: 'ball', angles: [0], radius });
  const j = base.joints[0]!;
  if (j.type !== 'ball') throw new Error('chainRig gave no ball joint');
  const joint = { ...j, twistLimit, swingLimit, motor: { ...j.motor, mode: 'position' as const, maxTorque: 5, errorReduction: 0.3 } };
  return { ...base, solver, joints: [joint], simulation: { ...base.simulation, gravity: [0, 0, 0] } };
}

/** S = swing·twist from [twist about X, swing about Y, swing about Z] (the inverse of swingTwist). */
function fromSwingTwist(twist: number, sy: number, sz: number): Quat {
  const ts = Math.hypot(sy, sz), k = ts > 0 ? Math.sin(ts / 2) / ts : 0.5;
  const qy = sy * k, qz = sz * k, qw = Math.cos(ts / 2), tx = Math.sin(twist / 2), tw = Math.cos(twist / 2);
  return [qw * tx, qy * tw + qz * tx, qz * tw - qy * tx, qw * tw];
}

/** Run 4 s toward `target`; the joint's [twist, swing y, swing z] at the end and the motor's ‖τ‖ of the last step. */
function settle(r: RigDocument, target: Quat): { angles: number[]; torque: number } {
  const sim = createSimulation(r);
  sim.setMotorTargets({ j0: target });
  const jh = sim.jointHandle('j0');
  for (let s = 0; s < 960; s++) sim.step();
  const rv = sim.world.getJointAngle(jh) as number[], a = Math.hypot(...rv);
  const q = a > 0 ? quatFromAxisAngle([rv[0]! / a, rv[1]! / a, rv[2]! / a], a) : [0, 0, 0, 1];
  const st = new Float64Array(3);
  swingTwist(st, q[0]!, q[1]!, q[2]!, q[3]!);
  return { angles: [...st], torque: sim.world.getMotorReport(jh).torqueMagnitude };
}

describe('a ball drive\'s target is clamped into its limits on both solvers', () => {
  // On the ellipse (θy/0.3)² + (θz/0.5)² = 1 along the target's own direction (1, 1): 0.6/√5.44 each.
  const onCone = 0.6 / Math.sqrt((0.6 / 0.3) ** 2 + (0.6 / 0.5) ** 2);
  const cases = [
    { name: 'twist 0.9 rad past a [−0.4, 0.4] range', twist: [-0.4, 0.4], swing: null, target: [0.9, 0, 0], expected: [0.4, 0, 0] },
    { name: 'swing (0.6, 0.6) rad outside a (0.3, 0.5) cone', twist: null, swing: [0.3, 0.5], target: [0, 0.6, 0.6], expected: [0, onCone, onCone] },
    { name: 'both at once', twist: [-0.4, 0.4], swing: [0.3, 0.5], target: [0.9, 0.6, 0.6], expected: [0.4, onCone, onCone] },
    // A slender rod (radius 2 cm) overshoots past the cone on its way: the target is widened to that pose, and
    // the stop alone must bring it back (the articulated solver used to stick at g = 1.0022, 5.7e-4 rad out).
    { name: 'slender rod, swing (0.6, 0.6) outside a (0.3, 0.5) cone', twist: null, swing: [0.3, 0.5], target: [0, 0.6, 0.6], expected: [0, onCone, onCone], radius: 0.02 },
    { name: 'slender rod, both at once', twist: [-0.4, 0.4], swing: [0.3, 0.5], target: [0.9, 0.6, 0.6], expected: [0.4, onCone, onCone], radius: 0.02 },
    { name: 'a target inside both (used as it is)', twist: [-0.4, 0.4], swing: [0.3, 0.5], target: [0.2, 0.1, 0.2], expected: [0.2, 0.1, 0.2] },
  ] as const;
  for (const c of cases) {
    it(`${c.name}: rigid and articulated settle at ${c.expected.map((x) => x.toFixed(6)).join(', ')} rad, the drive at rest`, () => {
      const target = fromSwingTwist(c.target[0], c.target[1], c.target[2]);
      const radius = 'radius' in c ? c.radius : 0.25;
      const rigid = settle(rig(c.twist ? [...c.twist] : null, c.swing ? [...c.swing] : null, 'rigid', radius), target);
      const art = settle(rig(c.twist ? [...c.twist] : null, c.swing ? [...c.swing] : null, 'articulated', radius), target);
      const off = (x: number[]) => Math.max(...x.map((v, k) => Math.abs(v - c.expected[k]!)));
      console.log(`${c.name}: rigid off by ${off(rigid.angles).toExponential(2)} rad, ‖τ‖ ${rigid.torque.toExponential(2)} N·m; articulated off by ${off(art.angles).toExponential(2)} rad, ‖τ‖ ${art.torque.toExponential(2)} N·m; solvers differ by ${Math.max(...rigid.angles.map((v, k) => Math.abs(v - art.angles[k]!))).toExponential(2)} rad`);
      expect(off(rigid.angles)).toBeLessThan(1e-6);
      expect(off(art.angles)).toBeLessThan(1e-6);
      for (let k = 0; k < 3; k++) expect(art.angles[k]).toBeCloseTo(rigid.angles[k]!, 6);
      // At rest on the limit: the drive no longer holds a torque against the stop.
      expect(rigid.torque).toBeLessThan(1e-6);
      expect(art.torque).toBeLessThan(1e-6);
    });
  }

  it('clampSwingTwistTarget: a target inside is left bit for bit; past the range, the end nearer on the circle; the range widened to the current pose', () => {
    const st = new Float64Array(3);
    const inside = Float64Array.from(fromSwingTwist(0.2, 0.1, 0.2)), copy = Float64Array.from(inside);
    expect(clampSwingTwistTarget(inside, st, -0.4, 0.4, 0.3, 0.5, 0, 0, 0)).toBe(false);
    expect([...inside]).toEqual([...copy]);
    // −3.1 rad is 0.18 rad from the stop at 3.0 round the circle, 2.1 rad from −1.
    const wrap = Float64Array.from(fromSwingTwist(-3.1, 0, 0));
    expect(clampSwingTwistTarget(wrap, st, -1, 3, Infinity, Infinity, 0, 0, 0)).toBe(true);
    swingTwist(st, wrap[0]!, wrap[1]!, wrap[2]!, wrap[3]!);
    expect(st[0]).toBeCloseTo(3, 12);
    // The joint stands at twist 0.6 and swing (0.45, 0) past its stops: the target goes no farther out than that.
    const past = Float64Array.from(fromSwingTwist(0.9, 0.9, 0));
    expect(clampSwingTwistTarget(past, st, -0.4, 0.4, 0.3, 0.5, 0.6, 0.45, 0)).toBe(true);
    swingTwist(st, past[0]!, past[1]!, past[2]!, past[3]!);
    expect(st[0]).toBeCloseTo(0.6, 12);
    expect(st[1]).toBeCloseTo(0.45, 12);
    expect(st[2]).toBeCloseTo(0, 12);
  });
});
