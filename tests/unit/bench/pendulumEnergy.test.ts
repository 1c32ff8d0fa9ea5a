/**
 * bench/pendulum-energy.ts builds the same pendulums in every engine (issue 11 item 2): each engine's initial
 * state has the analytic swing energy (so the rods hang from the pivot at the asked angles with the asked
 * mass and inertia), the Marionette rows are the test's (tests/unit/physics/pendulumEnergy.test.ts), and the
 * reference integrator (MuJoCo RK4 in joint coordinates) keeps the energy. 2 s per case keeps it short.
 */
import { describe, expect, it } from 'vitest';
import { measurePendulums, PENDULUM_CASES, pendulumTable, swingEnergy } from '../../../bench/pendulum-energy';
import { pendulumEnergy } from '../physics/pendulum';

describe('pendulum energy bench', () => {
  it('every engine starts each pendulum with the analytic swing energy and stays finite', async () => {
    const rows = await measurePendulums(undefined, PENDULUM_CASES, 2);
    expect(rows).toHaveLength(PENDULUM_CASES.length * 6);
    for (const r of rows) {
      // Jolt stores positions and rotations in float32: its start is within 1e-5 of the swing energy.
      expect(Math.abs(r.startSwing - r.swing) / r.swing, `${r.engine}, ${r.case}`).toBeLessThan(1e-5);
      expect(Number.isFinite(r.maxLoss), `${r.engine}, ${r.case}`).toBe(true);
    }
    // The analytic swing energies: m·g·(L/2)(1 − cos 60°) for one rod, g·[½(1 − cos a₁) + (1 − cos a₁) + ½(1 − cos a₂)] for two.
    expect(swingEnergy(PENDULUM_CASES[0]!)).toBeCloseTo(2.4525, 10);
    expect(swingEnergy(PENDULUM_CASES[2]!)).toBeCloseTo(9.81, 10);
    // MuJoCo RK4 in joint coordinates is the near-exact reference: under 0.1 % in 2 s on every case.
    for (const r of rows.filter((x) => x.engine === 'mujoco-rk4')) expect(r.maxLoss, r.case).toBeLessThan(1e-3);
    expect(pendulumTable(rows).split('\n')).toHaveLength(4 + PENDULUM_CASES.length);
  }, 60_000);

  it('the Marionette rows are the physics test\'s pendulums', async () => {
    const [row] = await measurePendulums(['marionette-shake'], [PENDULUM_CASES[2]!], 2);
    const direct = pendulumEnergy('double-hinge', { jointCorrection: 'shake' }, 2);
    expect(row!.maxLoss).toBe(direct.maxLoss);
    expect(row!.endLoss).toBe(direct.endLoss);
  });
});
