/**
 * World.setStageTiming (WorldStats.stageMs): each stage of the rigid step timed on a clock the caller gives
 * (bench/stages.ts passes performance.now). Checked with a counting clock, so the figures are exact: every
 * stage is read once per substep, and timing must not change a single bit of the simulation.
 */
import { describe, expect, it } from 'vitest';
import { loadRagdollFile } from '../../../bench/runBenchmark';
import { buildRagdollScene } from '../../../bench/scene';
import { createMarionetteWorld } from '../../../bench/marionetteEngine';
import { World } from '../../../shared/physics/world';
import { STEP_STAGES } from '../../../shared/physics/types';

function ragdolls(substeps: number) {
  const scene = buildRagdollScene(loadRagdollFile(), 2, true);
  let world: World | null = null;
  const bench = createMarionetteWorld((s) => (world = new World({ ...s, substeps })), scene);
  return { bench, world: world as unknown as World, bodies: scene.bodies.length };
}

/** Every body's pose as IEEE-754 bits, in scene order. */
function poses(bench: ReturnType<typeof ragdolls>['bench'], count: number): string {
  const p: [number, number, number] = [0, 0, 0], q: [number, number, number, number] = [0, 0, 0, 1];
  const out: number[] = [];
  for (let i = 0; i < count; i++) { bench.getPose(i, p, q); out.push(...p, ...q); }
  return Buffer.from(new Float64Array(out).buffer).toString('base64');
}

describe('stage timing (World.setStageTiming)', () => {
  it('times each stage once per substep on the given clock, and the step\'s bookkeeping as finish', () => {
    for (const substeps of [1, 3]) {
      const { bench, world } = ragdolls(substeps);
      let ticks = 0;
      world.setStageTiming(() => ticks++);
      bench.step();
      const ms = world.getStats().stageMs!;
      expect(Object.keys(ms)).toEqual([...STEP_STAGES]);
      for (const stage of STEP_STAGES) expect(ms[stage], stage).toBe(stage === 'finish' ? substeps + 1 : substeps);
      // One reading to start, one per stage and substep, one at the end.
      expect(ticks).toBe(1 + STEP_STAGES.length * substeps + 1);
      bench.step(); // each step starts from zero
      expect(world.getStats().stageMs!.solveVelocities).toBe(substeps);
      world.setStageTiming(null);
      bench.step();
      expect(world.getStats().stageMs).toBeUndefined();
      bench.dispose();
    }
  });

  it('changes no result: a timed world steps bit for bit as an untimed one', () => {
    const timed = ragdolls(2), plain = ragdolls(2);
    let clock = 0;
    timed.world.setStageTiming(() => (clock += 0.37));
    for (let k = 0; k < 120; k++) { timed.bench.step(); plain.bench.step(); }
    expect(poses(timed.bench, timed.bodies)).toBe(poses(plain.bench, plain.bodies));
    // The ragdolls moved (a frozen scene would match trivially).
    const first = ragdolls(2);
    expect(poses(first.bench, first.bodies)).not.toBe(poses(plain.bench, plain.bodies));
    for (const r of [timed, plain, first]) r.bench.dispose();
  });
});
