/** bench/speed-figures.ts: the docs table's ratio is Marionette over the fastest of Rapier, Jolt and MuJoCo (those that ran) per case, flagged when above 1. */
import { describe, expect, it } from 'vitest';
import type { BenchRow } from '../../../bench/runBenchmark';
import { coldLine, speedTable } from '../../../bench/speed-figures';

const row = (scene: string, n: number, motors: boolean, engine: BenchRow['engine'], msPerStep: number): BenchRow =>
  ({ scene, n, motors, engine, msPerStep, driftMeanM: null, driftMaxM: null, fallTimeS: null, settings: '' });

describe('speed table', () => {
  it('divides by the fastest peer per case and reports ns per row-iteration from the median and the fastest step', () => {
    const table = speedTable({
      results: [
        row('ragdoll11', 128, true, 'marionette', 4), row('ragdoll11', 128, true, 'rapier', 8), row('ragdoll11', 128, true, 'jolt', 10),
        row('ragdoll11', 128, true, 'mujoco', 3.2),
        row('pile500', 1, false, 'marionette', 6), row('pile500', 1, false, 'rapier', 5.5), row('pile500', 1, false, 'jolt', 5),
      ],
      nsPerRowIteration: 40,
      minMsPerStep: { 'ragdoll11|128|marionette|on': 3 },
    });
    expect(table).toContain('| ragdoll11 × 128, motors on | 4.000 | 8.000 | 10.000 | 3.200 | 1.25 — slower |');
    expect(table).toContain('| pile500 | 6.000 | 5.500 | 5.000 | — | 1.20 — slower |');
    expect(table).toContain('Largest Marionette ÷ fastest peer: 1.25');
    expect(table).toContain('40.0 ns from the median step, 30.0 ns from the fastest');
  });

  it('states the × 1 cases timed cold (no code warm-up) as Marionette over the fastest peer', () => {
    const line = coldLine({
      results: [
        row('ragdoll11', 1, true, 'marionette', 0.2), row('ragdoll11', 1, true, 'mujoco', 0.08), row('ragdoll11', 1, true, 'rapier', 0.16),
        row('ragdoll11', 1, false, 'marionette', 0.12), row('ragdoll11', 1, false, 'jolt', 0.1),
      ],
      nsPerRowIteration: null,
    });
    expect(line).toContain('motors on 0.200 ms ÷ 0.080 = 2.50, motors off 0.120 ms ÷ 0.100 = 1.20');
    expect(coldLine({ results: [], nsPerRowIteration: null })).toBe('');
  });
});
