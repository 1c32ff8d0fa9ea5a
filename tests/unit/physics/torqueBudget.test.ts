/**
 * Ball motor torque budget (issue 11 item 5): MotorDesc.torqueLimit 'perAxis' (seed 000's per-element clamp,
 * the default) lets the three rows together reach √3·τmax; 'magnitude' clamps the accumulated impulse vector
 * to the ball ‖λ‖ ≤ τmax·h. The report carries the torque vector's magnitude, and both report figures are the
 * largest over the step's substeps.
 */
import { describe, expect, it } from 'vitest';
import type { MotorDesc } from '../../../shared/physics/types';
import { World } from '../../../shared/physics/world';

const TAU = 2, LOAD = 10 * TAU, DT = 1 / 60, MASS = 2, R = 0.2;
const I = 0.4 * MASS * R * R; // solid sphere
const DIAG = [1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3)] as const;

/** A sphere on a ball joint at its centre (the point rows carry no torque), a velocity motor holding ω = 0,
 *  and a torque LOAD = 10·τmax along the diagonal of the motor's axes every step. */
function diagonalLoad(torqueLimit: MotorDesc['torqueLimit'], substeps: number) {
  const w = new World({ gravity: [0, 0, 0], substeps });
  const a = w.addBody({ type: 'static', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.05 }] });
  const b = w.addBody({ type: 'dynamic', mass: MASS, position: [0, 0, 0], shapes: [{ type: 'sphere', radius: R }] });
  const motor: MotorDesc = { mode: 'velocity', maxTorque: TAU, ...(torqueLimit ? { torqueLimit } : {}) };
  const j = w.addJoint({ name: 'shoulder', type: 'ball', bodyA: a, bodyB: b, frameA: { position: [0, 0, 0] }, frameB: { position: [0, 0, 0] }, motor });
  w.setMotorTarget(j, [0, 0, 0]);
  const out = [];
  for (let s = 0; s < 20; s++) {
    const w0 = w.getAngularVelocity(b);
    w.applyTorque(b, [LOAD * DIAG[0], LOAD * DIAG[1], LOAD * DIAG[2]]);
    w.step(DT);
    const w1 = w.getAngularVelocity(b);
    // The motor's torque from the body's motion: I·Δω/dt = load + τ_motor (a sphere: no gyroscopic term).
    const motorTorque = [0, 1, 2].map((k) => I * (w1[k]! - w0[k]!) / DT - LOAD * DIAG[k]!);
    out.push({ report: w.getMotorReport(j), motorTorque: Math.hypot(...motorTorque) });
  }
  return out;
}

describe('ball motor torque budget', () => {
  it("'perAxis' (the default): each row at τmax, together √3·τmax in magnitude", () => {
    for (const limit of [undefined, 'perAxis'] as const) {
      for (const r of diagonalLoad(limit, 1)) {
        expect(r.report.torque).toBeCloseTo(TAU, 9);
        expect(Math.abs(r.report.torqueMagnitude / (Math.sqrt(3) * TAU) - 1)).toBeLessThan(1e-9);
        expect(Math.abs(r.motorTorque / (Math.sqrt(3) * TAU) - 1)).toBeLessThan(1e-6);
        expect(r.report.saturated).toBe(true);
      }
    }
  });

  it("'magnitude': ‖τ‖ stays ≤ τmax (1e-9 relative) and sits on it under the load, at 1 and 3 substeps", () => {
    for (const substeps of [1, 3]) {
      for (const r of diagonalLoad('magnitude', substeps)) {
        expect(r.report.torqueMagnitude).toBeLessThanOrEqual(TAU * (1 + 1e-9));
        expect(r.report.torqueMagnitude).toBeGreaterThanOrEqual(TAU * (1 - 1e-9));
        // Along the diagonal every row carries τmax/√3.
        expect(Math.abs(r.report.torque / (TAU / Math.sqrt(3)) - 1)).toBeLessThan(1e-9);
        expect(r.motorTorque).toBeLessThanOrEqual(TAU * (1 + 1e-6));
        expect(Math.abs(r.motorTorque / TAU - 1)).toBeLessThan(1e-6);
        expect(r.report.saturated).toBe(true);
      }
    }
  });

  it("'magnitude' below the budget acts like 'perAxis' (the clamp is not touched)", () => {
    const run = (torqueLimit: MotorDesc['torqueLimit']) => {
      const w = new World({ gravity: [0, -9.81, 0] });
      const a = w.addBody({ type: 'static', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.05 }] });
      const b = w.addBody({ type: 'dynamic', mass: 1, position: [0.3, 0, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
      const j = w.addJoint({ type: 'ball', bodyA: a, bodyB: b, frameA: { position: [0, 0, 0] }, frameB: { position: [-0.3, 0, 0] }, motor: { mode: 'position', maxTorque: 100, torqueLimit } });
      w.setMotorTarget(j, [0, 0, Math.sin(0.2), Math.cos(0.2)]);
      const xs: number[] = [];
      for (let s = 0; s < 60; s++) { w.step(DT); xs.push(...w.getPosition(b), w.getMotorReport(j).torqueMagnitude); }
      return xs;
    };
    expect(run('magnitude')).toEqual(run('perAxis'));
  });

  it('reports the largest torque over the step’s substeps, not the last substep’s', () => {
    // A spinning sphere stopped by a strong velocity motor: the whole impulse I·ω₀ lands in the first of
    // 3 substeps (the later ones carry none), so the step's torque is I·ω₀/h with h = dt/3.
    for (const type of ['ball', 'hinge'] as const) {
      const w = new World({ gravity: [0, 0, 0], substeps: 3 });
      const a = w.addBody({ type: 'static', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.05 }] });
      const omega = 2;
      const b = w.addBody({ type: 'dynamic', mass: MASS, position: [0, 0, 0], angularVelocity: [omega, 0, 0], shapes: [{ type: 'sphere', radius: R }] });
      const j = w.addJoint({ type, bodyA: a, bodyB: b, frameA: { position: [0, 0, 0] }, frameB: { position: [0, 0, 0] }, motor: { mode: 'velocity', maxTorque: 1000 } });
      w.setMotorTarget(j, type === 'ball' ? [0, 0, 0] : 0);
      w.step(DT);
      const expected = (I * omega) / (DT / 3);
      const r = w.getMotorReport(j);
      expect(Math.abs(r.torque / expected - 1), type).toBeLessThan(1e-9);
      expect(Math.abs(r.torqueMagnitude / expected - 1), type).toBeLessThan(1e-9);
      expect(Math.abs(w.getAngularVelocity(b)[0])).toBeLessThan(1e-12);
      // The next step has nothing left to stop: the report restarts at 0.
      w.step(DT);
      expect(w.getMotorReport(j).torque).toBeLessThan(1e-9);
    }
  });

  it('refuses an unknown torqueLimit, naming the joint and the field', () => {
    const w = new World();
    const a = w.addBody({ type: 'static', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.05 }] });
    const b = w.addBody({ type: 'dynamic', mass: 1, position: [1, 0, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
    expect(() => w.addJoint({ name: 'neck', type: 'ball', bodyA: a, bodyB: b, frameA: { position: [0, 0, 0] }, frameB: { position: [-1, 0, 0] }, motor: { mode: 'position', maxTorque: 1, torqueLimit: 'sphere' as never } }))
      .toThrow("joint 'neck': motor.torqueLimit must be 'perAxis' or 'magnitude', got 'sphere'");
  });
});
