/**
 * A drive never asks its joint for more than the motor's maxSpeed (docs/rig-format.md `maxSpeed`;
 * shared/physics/joints/motor.ts DEFAULT_MAX_DRIVE_SPEED, 50 rad/s or m/s as Unity's default maximum angular
 * speed), on both solvers: the row's target velocity — r·ε/h in position mode, the target in velocity
 * mode — is clamped to ±maxSpeed, a ball's three rows scaled together so the rotation-vector rate keeps
 * its direction. A 1 kg, 1 m capsule on a static base, zero g, dt 1/240 s, one substep, τmax far above what
 * the request needs: one step takes the joint to exactly the speed it asks for. 64 velocity sweeps and no
 * position pass, so that the rigid solver's Gauss-Seidel converges on the joint's rows (at the default 8 it
 * reaches 90 % of the asked speed in the first step, capped or not).
 */
import { describe, expect, it } from 'vitest';
import { quatFromAxisAngle, quatRotate } from '../../../../shared/math/quat';
import { loadRig, type RigDocument } from '../../../../shared/rig';
import { createSimulation } from '../../../../shared/runtime';
import { chainRig } from './rigs';

type Solver = 'rigid' | 'articulated';
const SOLVERS: Solver[] = ['rigid', 'articulated'];
const ITERS = 64;

function rig(solver: Solver, joint: 'hinge' | 'ball' | 'prismatic', motor: Record<string, unknown>): RigDocument {
  const base = chainRig({ links: 1, joint: joint === 'ball' ? 'ball' : 'hinge', angles: [0], radius: 0.25 });
  const j = base.joints[0]! as unknown as Record<string, unknown>;
  const extra = joint === 'prismatic' ? { type: 'prismatic', limit: null } : {};
  const doc = JSON.parse(JSON.stringify({ ...base, solver, joints: [{ ...j, ...extra, motor: { ...(j.motor as object), ...motor } }], simulation: { ...base.simulation, gravity: [0, 0, 0], velocityIterations: ITERS, positionIterations: 0 } }));
  return loadRig(doc);
}

const speedOf = (sim: ReturnType<typeof createSimulation>, v: 'v' | 'w') => Math.hypot(...sim.frame().bodies.link0![v]);

describe('a drive asks for at most its motor\'s maxSpeed, on both solvers', () => {
  for (const solver of SOLVERS) {
    it(`${solver}: a hinge position drive 1 rad from its target (r·ε/h = 240 rad/s) turns at 50 rad/s by default, at 240 with maxSpeed 1000, at 20 with maxSpeed 20 — and still arrives`, () => {
      const first = (motor: Record<string, unknown>) => {
        const sim = createSimulation(rig(solver, 'hinge', { mode: 'position', maxTorque: 1e5, errorReduction: 1, ...motor }));
        sim.setMotorTargets({ j0: 1 });
        sim.step();
        return { sim, w: speedOf(sim, 'w') };
      };
      const byDefault = first({}), unbound = first({ maxSpeed: 1000 }), slow = first({ maxSpeed: 20 });
      console.log(`${solver} hinge: first-step |ω| ${byDefault.w.toFixed(6)} (default), ${unbound.w.toFixed(6)} (maxSpeed 1000), ${slow.w.toFixed(6)} (maxSpeed 20) rad/s`);
      expect(byDefault.w).toBeCloseTo(50, 4);
      expect(unbound.w).toBeCloseTo(240, 3);
      expect(slow.w).toBeCloseTo(20, 5);
      // At 20 rad/s the 1 rad takes 12 steps; the drive then holds it. Never faster than asked.
      let most = slow.w;
      for (let s = 1; s < 120; s++) { slow.sim.step(); most = Math.max(most, speedOf(slow.sim, 'w')); }
      expect(most).toBeLessThan(20 * (1 + 1e-6));
      expect(slow.sim.world.getJointAngle(slow.sim.jointHandle('j0')) as number).toBeCloseTo(1, 4);
    });

    it(`${solver}: a ball position drive 1.2 rad from its target about a diagonal (‖r·ε/h‖ = 288 rad/s) turns at 30 rad/s with maxSpeed 30, about the error's own axis`, () => {
      const sim = createSimulation(rig(solver, 'ball', { mode: 'position', maxTorque: 1e5, errorReduction: 1, maxSpeed: 30 }));
      const axis: [number, number, number] = [0, Math.SQRT1_2, Math.SQRT1_2];
      sim.setMotorTargets({ j0: quatFromAxisAngle(axis, 1.2) });
      sim.step();
      const w = sim.frame().bodies.link0!.w, n = Math.hypot(...w);
      // The target's axis in world: frame A's rotation in the static base (the chain's X onto world Z).
      const fa = sim.rig.joints[0]!.frameA.rotation;
      const a = quatRotate(fa, axis), cos = Math.abs(a[0] * w[0] + a[1] * w[1] + a[2] * w[2]) / n;
      console.log(`${solver} ball: first-step |ω| ${n.toFixed(6)} rad/s, |cos| to the error axis ${cos.toFixed(9)}`);
      expect(n).toBeCloseTo(30, 4);
      expect(cos).toBeGreaterThan(1 - 1e-6);
    });

    it(`${solver}: a slider velocity drive told 500 m/s moves at its maxSpeed 5 m/s`, () => {
      const sim = createSimulation(rig(solver, 'prismatic', { mode: 'velocity', maxTorque: 1e5, maxSpeed: 5, target: { source: 'rest', velocity: 500 } }));
      let most = 0;
      for (let s = 0; s < 24; s++) { sim.step(); most = Math.max(most, speedOf(sim, 'v')); }
      console.log(`${solver} slider: |v| ${speedOf(sim, 'v').toFixed(6)} m/s after 0.1 s, most ${most.toFixed(6)}`);
      expect(speedOf(sim, 'v')).toBeCloseTo(5, 5);
      expect(most).toBeLessThan(5 * (1 + 1e-6));
    });
  }

  it('maxSpeed must be > 0 and ≤ 1000: the rig names the field', () => {
    const base = rig('rigid', 'hinge', {});
    for (const bad of [0, -1, 2000]) {
      const doc = JSON.parse(JSON.stringify(base));
      doc.joints[0].motor.maxSpeed = bad;
      expect(() => loadRig(doc)).toThrow(/joints\.0\.motor\.maxSpeed|joints\[0\]\.motor\.maxSpeed|maxSpeed/);
    }
  });
});
