import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { clampAngle, clampBall, forwardKinematics, restValues, swingTwist, withinLimits } from '../../../shared/ik/chain';
import { quatFromAxisAngle, quatMul, quatAngleBetween, quatNormalize, type Quat } from '../../../shared/math/quat';
import { FORE, HAND, SHOULDER, UPPER, mineArm } from './armFixture';

const identityRoot = { position: [0, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as Quat };

describe('chain forward kinematics', () => {
  it('reproduces the rest pose at rest values', () => {
    const fk = forwardKinematics(mineArm(0.7), identityRoot, restValues(mineArm()));
    expect(fk.links[0]!.position[2]).toBeCloseTo(SHOULDER[2] + UPPER / 2, 12);
    expect(fk.links[1]!.position[2]).toBeCloseTo(SHOULDER[2] + UPPER + FORE / 2, 12);
    expect(fk.effector[2]).toBeCloseTo(SHOULDER[2] + UPPER + FORE + HAND, 12);
    for (const l of fk.links) expect(quatAngleBetween(l.rotation, [0, 0, 0, 1])).toBeLessThan(1e-6);
  });

  it('bends the elbow about its hinge axis (world X at rest), positive angle by the right-hand rule', () => {
    const fk = forwardKinematics(mineArm(), identityRoot, [[0, 0, 0, 1], Math.PI / 2, 0]);
    // Rotating +Z by +90° about +X gives −Y: the forearm hangs down.
    expect(fk.effector[1]).toBeCloseTo(SHOULDER[1] - FORE - HAND, 12);
    expect(fk.effector[2]).toBeCloseTo(SHOULDER[2] + UPPER, 12);
  });
});

describe('limits', () => {
  it('clampAngle keeps inside values, and sends outside ones to the nearer bound on the circle', () => {
    expect(clampAngle(0.5, [0, 1])).toBe(0.5);
    expect(clampAngle(1.5, [0, 1])).toBe(1);
    expect(clampAngle(-0.2, [0, 1])).toBe(0);
    expect(clampAngle(2 * Math.PI - 0.1, [0, 1])).toBe(0); // −0.1 on the circle: nearer 0 than 1
  });

  it('clampBall leaves rotations inside alone and puts outside ones on the boundary', () => {
    const inside = quatMul(quatFromAxisAngle([0, 1, 0], 0.3), quatFromAxisAngle([1, 0, 0], 0.2));
    expect(quatAngleBetween(clampBall(inside, [-0.5, 0.5], [1, 1]), inside)).toBeLessThan(1e-9);
    const rnd = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }));
    fc.assert(fc.property(rnd, (r) => {
      if (Math.hypot(...r) < 1e-3) return true;
      const q = quatNormalize(r as Quat);
      const joint = { type: 'ball' as const, frameA: identityRoot, frameB: identityRoot, twistLimit: [-0.4, 0.7] as [number, number], swingLimit: [0.8, 0.5] as [number, number] };
      const c = clampBall(q, joint.twistLimit, joint.swingLimit);
      const { twistAngle } = swingTwist(c);
      return withinLimits(joint, c, 1e-6) && twistAngle >= -0.4 - 1e-6 && twistAngle <= 0.7 + 1e-6 && c.every(Number.isFinite);
    }), { numRuns: 500 });
  });
});
