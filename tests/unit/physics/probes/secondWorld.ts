/**
 * Probe for jit.test.ts, run bundled under `node --trace-deopt`: two ragdoll11 worlds made and stepped
 * 600 steps one after the other, with markers around the second one's construction.
 */
import { loadRagdollFile } from '../../../../bench/runBenchmark';
import { createMarionetteWorld } from '../../../../bench/marionetteEngine';
import { buildRagdollScene } from '../../../../bench/scene';
import { World } from '../../../../shared/physics/world';

for (let round = 0; round < 2; round++) {
  const scene = buildRagdollScene(loadRagdollFile(), 1, true);
  console.log(`--- world ${round} create`);
  const w = createMarionetteWorld((s) => new World(s), scene);
  console.log(`--- world ${round} created`);
  for (let s = 0; s < 600; s++) w.step();
}
