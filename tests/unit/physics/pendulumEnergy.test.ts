/**
 * Energy of released rod pendulums against the analytic answer (issue 11 item 2). A 1 kg rod of length
 * 1 m (capsule r 2 cm) hangs from a fixed pivot; released from rest at 60° its swing energy is
 * m·g·(L/2)·(1 − cos 60°) = 2.4525 J, and with no damping and no limits a conservative integrator keeps it.
 * Measured: the largest |E(t) − E(0)| over 10 s, as a fraction of the swing energy, at the rig's default
 * step (dt 1/60, 2 substeps, 8 velocity and 2 position iterations).
 */
import { describe, expect, it } from 'vitest';
import { pendulumEnergy } from './pendulum';

const SWING = 1 * 9.81 * 0.5 * (1 - Math.cos(Math.PI / 3));

describe('rod pendulums keep their energy (jointCorrection "shake", the rig default)', () => {
  it('the set-up has the analytic swing energy', () => {
    expect(pendulumEnergy('hinge', { jointCorrection: 'shake' }, 0.02).swing).toBeCloseTo(SWING, 9);
    expect(pendulumEnergy('double-hinge', { jointCorrection: 'shake' }, 0.02).swing).toBeCloseTo(SWING * 4, 9); // + the lower rod, whose centre is three times as far from the pivot
  });

  it.each([['hinge', 0.03], ['ball', 0.03], ['double-hinge', 0.05], ['double-ball', 0.05]] as const)('%s: |ΔE| ≤ %s of the swing energy over 10 s', (kind, bound) => {
    const r = pendulumEnergy(kind, { jointCorrection: 'shake' });
    console.log(`${kind} shake: max |ΔE| ${(100 * r.maxLoss).toFixed(2)} %, after 10 s ${(100 * r.endLoss).toFixed(2)} % lost`);
    expect(r.maxLoss).toBeLessThanOrEqual(bound);
  });

  it.each([['double-hinge', 90, 0.05], ['double-ball', 120, 0.05]] as const)('%s released bent (upper at 60°, lower at %s°): |ΔE| ≤ %s', (kind, lower, bound) => {
    const r = pendulumEnergy(kind, { jointCorrection: 'shake' }, 10, 1 / 60, Math.PI / 3, (lower * Math.PI) / 180);
    // Analytic swing energy: g·[½(1 − cos 60°) + (1 − cos 60°) + ½(1 − cos lower)] for 1 kg, 1 m rods.
    expect(r.swing).toBeCloseTo(9.81 * (0.25 + 0.5 + 0.5 * (1 - Math.cos((lower * Math.PI) / 180))), 9);
    console.log(`${kind} bent ${lower}° shake: max |ΔE| ${(100 * r.maxLoss).toFixed(2)} %`);
    expect(r.maxLoss).toBeLessThanOrEqual(bound);
  });

  it('"projection" (moves positions only) is the dissipative mode: ≥ 20 % lost in 10 s', () => {
    for (const kind of ['hinge', 'double-hinge'] as const) {
      const r = pendulumEnergy(kind, { jointCorrection: 'projection' });
      console.log(`${kind} projection: ${(100 * r.endLoss).toFixed(1)} % lost`);
      expect(r.endLoss).toBeGreaterThan(0.2);
    }
  });
});
