import { describe, expect, it } from 'vitest';
import { quatFromAxisAngle } from '../../../shared/math/quat';
import { World } from '../../../shared/physics/world';
import type { BodyHandle, JointHandle } from '../../../shared/physics/types';
import { energy, X_TO_Z } from './helpers';

describe('joints', () => {
  it('simple pendulum: period within 1 % of the physical-pendulum formula at 5°', () => {
    const w = new World();
    const L = 1, r = 0.05, m = 1;
    const pivot = w.addBody({ type: 'static', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.01 }] });
    const th0 = (5 * Math.PI) / 180;
    const bob = w.addBody({ type: 'dynamic', mass: m, position: [L * Math.sin(th0), -L * Math.cos(th0), 0], shapes: [{ type: 'sphere', radius: r }] });
    w.addJoint({ type: 'ball', bodyA: pivot, bodyB: bob, frameA: { position: [0, 0, 0] }, frameB: { position: [-L * Math.sin(th0), L * Math.cos(th0), 0] } });
    // T = 2π·sqrt(I_pivot / (m·g·L))·(1 + θ₀²/16), I_pivot = 2/5·m·r² + m·L².
    const T = 2 * Math.PI * Math.sqrt((0.4 * m * r * r + m * L * L) / (m * 9.81 * L)) * (1 + (th0 * th0) / 16);
    const h = 1 / 60;
    const crossings: number[] = [];
    let prevX = w.getPosition(bob)[0];
    for (let i = 1; i <= 600; i++) {
      w.step(h);
      const x = w.getPosition(bob)[0];
      if (prevX > 0 && x <= 0) crossings.push((i - 1 + prevX / (prevX - x)) * h);
      prevX = x;
    }
    expect(crossings.length).toBeGreaterThanOrEqual(4);
    const measured = (crossings[crossings.length - 1]! - crossings[0]!) / (crossings.length - 1);
    expect(Math.abs(measured - T) / T).toBeLessThan(0.01);
  });

  it('double pendulum released horizontal: the solver never adds energy and loses little', () => {
    // The pivot's 1 cm sphere does not collide: the lower link used to sweep through it, an inelastic
    // impact that the old version of this test counted as joint dissipation.
    // Energy measure: semi-implicit Euler conserves not E but, to O(h²), the modified energy
    // H̃ = E − (h/2)·Σ m·g·v_y (for free fall: ΔE = −g²h²/2 per step, ΔH̃ = 0), so E itself swings by
    // ≈ (h/2)·m·g·|v_y| (±1 % of m·g·h here at 1 substep) whatever the constraint solver does. "Never adds
    // energy" is therefore checked on H̃ (measured gain ≤ 0.02 %; the raw E gain is ≤ 0.5 % with 4
    // substeps, 0.9 % with 1). Loss with jointCorrection 'shake': 6 % at 1 substep, 2.4 % at 4; the default
    // 'projection' loses 40 % and 21 % (it never gains: raw E within 0.5 % at both).
    for (const [jointCorrection, substeps, maxLoss, maxRawGain] of [
      ['shake', 1, 0.08, Infinity], ['shake', 4, 0.03, 0.005], ['projection', 1, 0.5, 0.005], ['projection', 4, 0.25, 0.005],
    ] as const) {
      const w = new World({ substeps, jointCorrection });
      const h = 1 / 60 / substeps;
      const pivot = w.addBody({ type: 'static', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.01 }], collisionMask: 0 });
      const a = w.addBody({ type: 'dynamic', mass: 1, position: [0.5, 0, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.03, 0.03] }] });
      const b = w.addBody({ type: 'dynamic', mass: 1, position: [1.5, 0, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.03, 0.03] }] });
      w.addJoint({ type: 'hinge', bodyA: pivot, bodyB: a, frameA: { position: [0, 0, 0], rotation: X_TO_Z }, frameB: { position: [-0.5, 0, 0], rotation: X_TO_Z } });
      w.addJoint({ type: 'hinge', bodyA: a, bodyB: b, frameA: { position: [0.5, 0, 0], rotation: X_TO_Z }, frameB: { position: [-0.5, 0, 0], rotation: X_TO_Z } });
      const modified = () => energy(w, [a, b]) - (h / 2) * 9.81 * (w.getLinearVelocity(a)[1] + w.getLinearVelocity(b)[1]);
      const e0 = energy(w, [a, b]), m0 = modified();
      const scale = 2 * 9.81 * 1.5; // m·g·(fall height of the lower link's centre)
      for (let i = 0; i < 600; i++) {
        w.step(1 / 60);
        const e = energy(w, [a, b]);
        expect(modified() - m0).toBeLessThan(0.0005 * scale);
        expect(e - e0).toBeLessThan(maxRawGain * scale);
        expect(e0 - e).toBeLessThan(maxLoss * scale);
      }
    }
  });

  it('a ball-joint chain of 8 links swinging under gravity keeps every anchor within 1 mm', () => {
    // 20° release at the defaults (after the first 10 steps, while warm starting builds up); the 45° whip
    // needs 2 substeps for the same bound.
    for (const [angle, substeps] of [[0.35, 1], [Math.PI / 4, 2]] as const) {
      const w = new World({ substeps });
      const bodies: BodyHandle[] = [w.addBody({ type: 'static', position: [0, 5, 0], shapes: [{ type: 'sphere', radius: 0.05 }] })];
      const joints: JointHandle[] = [];
      const d = [Math.sin(angle), -Math.cos(angle)];
      const rot = quatFromAxisAngle([0, 0, 1], angle - Math.PI / 2); // capsule x axis along d
      for (let i = 0; i < 8; i++) {
        const c = 0.2 + 0.4 * i;
        const b = w.addBody({ type: 'dynamic', mass: 1, position: [c * d[0]!, 5 + c * d[1]!, 0], rotation: rot, shapes: [{ type: 'capsule', radius: 0.05, halfHeight: 0.15, axis: 'x' }] });
        joints.push(w.addJoint({ type: 'ball', bodyA: bodies[i]!, bodyB: b, frameA: { position: [i === 0 ? 0 : 0.2, 0, 0] }, frameB: { position: [-0.2, 0, 0] } }));
        bodies.push(b);
      }
      let worst = 0;
      for (let s = 0; s < 600; s++) {
        w.step(1 / 60);
        if (s >= 10) for (const j of joints) worst = Math.max(worst, w.getJointError(j));
      }
      expect(worst).toBeLessThan(1e-3);
    }
  });

  it('hinge angle is signed and continuous through ±180° (179° → 181° does not flip)', () => {
    const w = new World({ gravity: [0, 0, 0] });
    const base = w.addBody({ type: 'static', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.05 }] });
    const arm = w.addBody({ type: 'dynamic', position: [0, 0, 0], rotation: quatFromAxisAngle([0, 0, 1], (179 * Math.PI) / 180), shapes: [{ type: 'box', halfExtents: [0.5, 0.05, 0.05] }], angularVelocity: [0, 0, 0.6] });
    // Joint frames coincide at the arm's rest (identity); the arm starts at +179°.
    const j = w.addJoint({ type: 'hinge', bodyA: base, bodyB: arm, frameA: { position: [0, 0, 0], rotation: X_TO_Z }, frameB: { position: [0, 0, 0], rotation: X_TO_Z } });
    const start = w.getJointAngle(j) as number;
    expect(start).toBeCloseTo((179 * Math.PI) / 180, 9);
    for (let i = 0; i < 6; i++) w.step(1 / 60); // +0.06 rad ≈ 3.4°
    const a = w.getJointAngle(j) as number;
    expect(a).toBeGreaterThan(Math.PI);
    expect(a).toBeCloseTo(start + 0.06, 3);
  });

  it('signed hinge limits at ±170° hold (a spinning arm stops at +170°, then at −170° going back)', () => {
    const w = new World({ gravity: [0, 0, 0] });
    const base = w.addBody({ type: 'static', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.05 }] });
    const arm = w.addBody({ type: 'dynamic', mass: 1, position: [0.5, 0, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.05, 0.05] }], angularVelocity: [0, 0, 4], linearVelocity: [0, 2, 0] });
    const lim = (170 * Math.PI) / 180;
    const j = w.addJoint({ type: 'hinge', bodyA: base, bodyB: arm, frameA: { position: [0, 0, 0], rotation: X_TO_Z }, frameB: { position: [-0.5, 0, 0], rotation: X_TO_Z }, limit: [-lim, lim] });
    let maxA = 0;
    for (let i = 0; i < 120; i++) { w.step(1 / 60); maxA = Math.max(maxA, w.getJointAngle(j) as number); }
    expect(maxA).toBeLessThan(lim + (1 * Math.PI) / 180);
    expect(maxA).toBeGreaterThan(lim - (1 * Math.PI) / 180);
    const c = w.getCenterOfMass(arm);
    w.setVelocity(arm, [4 * c[1], -4 * c[0], 0], [0, 0, -4]);
    let minA = 0;
    for (let i = 0; i < 180; i++) { w.step(1 / 60); minA = Math.min(minA, w.getJointAngle(j) as number); }
    expect(minA).toBeGreaterThan(-lim - (1 * Math.PI) / 180);
    expect(minA).toBeLessThan(-lim + (1 * Math.PI) / 180);
  });

  it('ball twist and elliptical swing limits hold within 2°', () => {
    const w = new World({ gravity: [0, 0, 0] });
    const base = w.addBody({ type: 'static', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.05 }] });
    const arm = w.addBody({ type: 'dynamic', mass: 1, position: [0.5, 0, 0], shapes: [{ type: 'capsule', radius: 0.05, halfHeight: 0.4, axis: 'x' }] });
    const j = w.addJoint({ type: 'ball', bodyA: base, bodyB: arm, frameA: { position: [0, 0, 0] }, frameB: { position: [-0.5, 0, 0] }, twistLimit: [-0.3, 0.5], swingLimit: [0.4, 0.8] });
    const deg2 = (2 * Math.PI) / 180;
    // Twist about X, swing about Y, swing about Z, in turn.
    for (const [om, check] of [
      [[5, 0, 0], (r: number[]) => r[0]! < 0.5 + deg2],
      [[-5, 0, 0], (r: number[]) => r[0]! > -0.3 - deg2],
      [[0, 3, 0], (r: number[]) => Math.abs(r[1]!) < 0.4 + deg2],
      [[0, 0, 3], (r: number[]) => Math.abs(r[2]!) < 0.8 + deg2],
    ] as const) {
      w.setPose(arm, [0.5, 0, 0], [0, 0, 0, 1]);
      w.resetWarmStart();
      w.setVelocity(arm, [0, -om[2] * 0.5, om[1] * 0.5], om as unknown as [number, number, number]);
      for (let i = 0; i < 60; i++) {
        w.step(1 / 60);
        const r = w.getJointAngle(j) as number[];
        expect(check(r)).toBe(true);
      }
    }
  });
});
