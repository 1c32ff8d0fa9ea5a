import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { forwardKinematics, withinLimits, type ChainJoint } from '../../../shared/ik/chain';
import { assertTwoBoneChain, solveTwoBone, solveElbow } from '../../../shared/ik/twoBone';
import { quatFromAxisAngle, quatNormalize, quatRotate, type Quat } from '../../../shared/math/quat';
import { transformPoint } from '../../../shared/math/transform';
import type { Vec3 } from '../../../shared/math/vec3';
import { FORE, HAND, SHOULDER, UPPER, mineArm } from './armFixture';

const identityRoot = { position: [0, 0, 0] as Vec3, rotation: [0, 0, 0, 1] as Quat };
const d = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
const REACH = UPPER + FORE + HAND;
const coord = fc.double({ min: -1.5, max: 1.5, noNaN: true });
const vec = fc.tuple(coord, coord, coord);

describe('two-bone IK (shoulder ball + elbow hinge + wrist hinge)', () => {
  it('reaches reachable targets exactly, with every joint inside its limits', () => {
    for (const twist of [0, 0.9]) {
      const arm = mineArm(twist);
      // Targets in front of and below the shoulder, 0.35–0.9 m away.
      for (let i = 0; i < 60; i++) {
        const r = 0.35 + (0.55 * i) / 60, a = -1.2 + (2.0 * ((i * 7) % 60)) / 60, b = -0.6 + (1.2 * ((i * 13) % 60)) / 60;
        const target: Vec3 = [SHOULDER[0] + r * Math.sin(b) * Math.cos(a), SHOULDER[1] + r * Math.sin(a), SHOULDER[2] + r * Math.cos(b) * Math.cos(a)];
        const res = solveTwoBone(arm, identityRoot, { target, pole: [0, 1.5, 0], handAim: [0, -1, 0] });
        expect(res.error).toBeLessThan(1e-6);
        arm.joints.forEach((j, k) => expect(withinLimits(j, res.values[k]!, 1e-9)).toBe(true));
      }
    }
  });

  it('bends the elbow toward the pole', () => {
    const base = mineArm();
    // Room in the shoulder twist for a sideways elbow.
    const arm = { ...base, joints: [{ ...base.joints[0]!, twistLimit: [-1.8, 1.8] as [number, number] }, ...base.joints.slice(1)] };
    const target: Vec3 = [0, -0.25, 0.85];
    for (const pole of [[0, 2, 0], [1.5, 0.1, 0.5], [-1.5, 0.1, 0.5]] as Vec3[]) {
      const res = solveTwoBone(arm, identityRoot, { target, pole });
      const fk = forwardKinematics(arm, identityRoot, res.values);
      const elbow = transformPoint(fk.links[0]!, [0, 0, UPPER / 2]);
      // Elbow's offset from the shoulder→target line points toward the pole's offset from it.
      const s = SHOULDER, dir = [target[0] - s[0], target[1] - s[1], target[2] - s[2]];
      const dl = Math.hypot(...dir); const dh = dir.map((x) => x / dl);
      const perp = (p: Vec3) => { const v = [p[0] - s[0], p[1] - s[1], p[2] - s[2]]; const k = v[0]! * dh[0]! + v[1]! * dh[1]! + v[2]! * dh[2]!; return v.map((x, i) => x - k * dh[i]!); };
      const e = perp(elbow), p = perp(pole);
      const cos = (e[0]! * p[0]! + e[1]! * p[1]! + e[2]! * p[2]!) / (Math.hypot(...e) * Math.hypot(...p));
      expect(cos).toBeGreaterThan(0.999);
      expect(res.error).toBeLessThan(1e-6);
    }
  });

  it('still reaches when the shoulder twist limit forbids the pole plane, and holds the limit', () => {
    const arm = mineArm(); // twist limited to ±1.2 rad: a pole straight to the side needs ≈ ±1.57
    for (const pole of [[1.5, 0.1, 0.5], [-1.5, 0.1, 0.5]] as Vec3[]) {
      const res = solveTwoBone(arm, identityRoot, { target: [0, -0.25, 0.85], pole });
      expect(res.error).toBeLessThan(1e-3);
      arm.joints.forEach((j, k) => expect(withinLimits(j, res.values[k]!, 1e-9)).toBe(true));
    }
  });

  it('points the fingers at the floor when asked (wrist aim), as far as the wrist limit allows', () => {
    const arm = mineArm();
    const res = solveTwoBone(arm, identityRoot, { target: [0, -0.2, 0.7], pole: [0, 2, 0], handAim: [0, -1, 0] });
    const fk = forwardKinematics(arm, identityRoot, res.values);
    const handDir = quatRotate(fk.links[2]!.rotation, [0, 0, 1]);
    expect(handDir[1]).toBeLessThan(-0.98);
    expect(res.error).toBeLessThan(1e-6);
  });

  it('unreachable far → the arm straight toward the target; too close → folded to the elbow limit and aimed', () => {
    const arm = mineArm();
    const far: Vec3 = [1, -2, 3];
    const res = solveTwoBone(arm, identityRoot, { target: far, pole: [0, 2, 0] });
    expect(res.values[1]).toBeCloseTo(0, 9);
    expect(d(res.effector, SHOULDER)).toBeCloseTo(REACH, 6);
    const dir = far.map((x, i) => x - SHOULDER[i]!), got = res.effector.map((x, i) => x - SHOULDER[i]!);
    const cos = (dir[0]! * got[0]! + dir[1]! * got[1]! + dir[2]! * got[2]!) / (Math.hypot(...dir) * Math.hypot(...got));
    expect(cos).toBeGreaterThan(1 - 1e-9);

    const near: Vec3 = [SHOULDER[0], SHOULDER[1] - 0.05, SHOULDER[2] + 0.02];
    const folded = solveTwoBone(arm, identityRoot, { target: near, pole: [0, 2, 0] });
    expect(folded.values[1]).toBeCloseTo(2.6, 9); // elbow limit max
    expect(withinLimits(arm.joints[1]!, folded.values[1]!)).toBe(true);
  });

  it('follows the root body: a rotated, moved root gives the same joint values for the carried target', () => {
    const arm = mineArm();
    const local: Vec3 = [0.1, -0.3, 0.75];
    const a = solveTwoBone(arm, identityRoot, { target: local, pole: [0, 2, 0], handAim: [0, -1, 0] });
    const root = { position: [3, 0.5, -2] as Vec3, rotation: quatNormalize(quatFromAxisAngle([0.3, 1, 0.2], 1.1)) };
    const b = solveTwoBone(arm, root, { target: transformPoint(root, local), pole: transformPoint(root, [0, 2, 0]), handAim: quatRotate(root.rotation, [0, -1, 0]) });
    expect(b.error).toBeLessThan(1e-6);
    expect(b.values[1]).toBeCloseTo(a.values[1] as number, 6);
    expect(b.values[2]).toBeCloseTo(a.values[2] as number, 6);
  });

  it('never returns NaN and always respects limits, for any target (the shoulder itself included), pole and root', () => {
    const arm = mineArm(0.4);
    const targets = fc.oneof(vec, fc.constant(SHOULDER as Vec3), fc.constant([0, 0, 0] as Vec3));
    const poles = fc.oneof(vec, fc.constant(SHOULDER as Vec3));
    const q = fc.tuple(coord, coord, coord, coord);
    fc.assert(fc.property(targets, poles, q, fc.boolean(), (t, p, rq, aim) => {
      const rot = Math.hypot(...rq) < 1e-3 ? [0, 0, 0, 1] as Quat : quatNormalize(rq as Quat);
      const res = solveTwoBone(arm, { position: [0, 0, 0], rotation: rot }, { target: t as Vec3, pole: p as Vec3, handAim: aim ? [0, -1, 0] : null });
      const flat = [...(res.values[0] as Quat), res.values[1] as number, res.values[2] as number, ...res.effector, res.error];
      if (!flat.every(Number.isFinite)) return false;
      return arm.joints.every((j, k) => withinLimits(j, res.values[k]!, 1e-6));
    }), { numRuns: 1000 });
  });

  it('closest reachable pose: the residual equals the distance to the reachable shell', () => {
    const arm = mineArm();
    fc.assert(fc.property(fc.double({ min: 1.2, max: 4, noNaN: true }), fc.double({ min: -0.6, max: 0.6, noNaN: true }), (r, a) => {
      const t: Vec3 = [SHOULDER[0] + r * Math.sin(a), SHOULDER[1], SHOULDER[2] + r * Math.cos(a)];
      const res = solveTwoBone(arm, identityRoot, { target: t, pole: [0, 2, 0] });
      return Math.abs(res.error - (r - REACH)) < 1e-6;
    }), { numRuns: 200 });
  });
});

describe('solveElbow', () => {
  it('matches the law of cosines for a planar straight-boned arm', () => {
    // u along +Z (0.45), v along +Z (0.52) at θ = 0, axis X: |w|² = a² + b² + 2ab·cos θ.
    const a = 0.45, b = 0.52;
    for (const dist of [0.2, 0.5, 0.8, 0.95]) {
      const th = solveElbow([0, 0, a], [1, 0, 0], [0, 0, b], dist, [0, Math.PI], 0);
      expect(Math.sqrt(a * a + b * b + 2 * a * b * Math.cos(th))).toBeCloseTo(dist, 9);
      expect(th).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('assertTwoBoneChain', () => {
  it('accepts [ball, hinge] and [ball, hinge, hinge] and names the joint types of anything else', () => {
    const arm = mineArm();
    const [ball, hinge, wrist] = arm.joints as [ChainJoint, ChainJoint, ChainJoint];
    expect(() => assertTwoBoneChain(arm)).not.toThrow();
    expect(() => assertTwoBoneChain({ joints: [ball, hinge], effector: arm.effector })).not.toThrow();
    expect(() => assertTwoBoneChain({ joints: [hinge, hinge], effector: arm.effector }, 'controllers["arm"]'))
      .toThrow('controllers["arm"]: two-bone IK needs [ball, hinge] or [ball, hinge, hinge] (shoulder, elbow, wrist), got [hinge, hinge]');
    expect(() => assertTwoBoneChain({ joints: [ball, hinge, ball], effector: arm.effector })).toThrow('got [ball, hinge, ball]');
    expect(() => assertTwoBoneChain({ joints: [ball, hinge, wrist, wrist], effector: arm.effector })).toThrow('got [ball, hinge, hinge, hinge]');
    expect(() => assertTwoBoneChain({ joints: [ball], effector: arm.effector })).toThrow('got [ball]');
    expect(() => solveTwoBone({ joints: [ball, ball], effector: arm.effector }, { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { target: [0, 0, 1], pole: [0, 1, 0] })).toThrow('got [ball, ball]');
  });
});
