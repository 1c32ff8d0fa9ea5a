/**
 * Side-by-side benchmark (issue 7): the humanoid (assets/creatures/humanoid.rig.json) as a limp ragdoll
 * under the rigid solver (createSimulation → World: sequential impulses, motors switched off) and under the
 * particle solver (particleSceneFromRig → createParticleSimulation: Jakobsen/Verlet), dropped onto the
 * floor. N independent copies per solver (no ragdoll–ragdoll contact in either); ms per step of the rig's
 * dt for all N together, median of 5 timed batches after a warm-up.
 *
 *   npx tsx tests/bench/particles-vs-rigid.ts [--quick]
 *
 * Not a test: timings go to stdout (and docs/particles.md), no thresholds.
 */
import { readFileSync } from 'node:fs';
import { createParticleSimulation, particleSceneFromRig } from '../../shared/physics/particles';
import { loadRig, type RigDocument } from '../../shared/rig';
import { createSimulation } from '../../shared/runtime/simulation';

const quick = process.argv.includes('--quick');
const rigPath = new URL('../../assets/creatures/humanoid.rig.json', import.meta.url);
const rig = loadRig(readFileSync(rigPath, 'utf8'), { source: 'humanoid.rig.json' });
const limp: RigDocument = {
  ...rig,
  controllers: [],
  joints: rig.joints.map((j) => ('motor' in j ? { ...j, motor: { ...j.motor, mode: 'off' as const, frictionTorque: 0 } } : j)),
};

interface Stepper { step(): void }
function time(make: () => Stepper, n: number, steps: number): number {
  const sims = Array.from({ length: n }, make);
  const batch = () => { for (let s = 0; s < steps; s++) for (const sim of sims) sim.step(); };
  batch(); // warm-up (JIT, and the fall onto the floor so contacts are active)
  const samples: number[] = [];
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    batch();
    samples.push((performance.now() - t0) / steps);
  }
  samples.sort((a, b) => a - b);
  return samples[2]!;
}

const scene = particleSceneFromRig(limp);
const rows: string[] = [];
for (const n of [1, 128]) {
  const steps = quick ? (n === 1 ? 60 : 5) : n === 1 ? 300 : 30;
  const rigid = time(() => createSimulation(limp), n, steps);
  const particle = time(() => createParticleSimulation(scene), n, steps);
  rows.push(`| ${String(n).padStart(3)} | ${rigid.toFixed(3).padStart(8)} | ${particle.toFixed(3).padStart(8)} | ${(rigid / particle).toFixed(2).padStart(5)} |`);
}
const s = scene.settings;
console.log(`humanoid: ${rig.bodies.length} bodies / ${rig.joints.length} joints (rigid), ${scene.particles.length} particles / ${scene.bones.length} bones / ${scene.constraints.length} limits (particle); dt = ${(1 / rig.simulation.dt).toFixed(0)} Hz`);
console.log(`rigid: World, ${rig.simulation.substeps} substep(s), ${rig.simulation.velocityIterations} velocity + ${rig.simulation.positionIterations} position iterations, motors off; particle: ${s.iterations} relaxation iterations`);
console.log('|   N | rigid ms/step | particle ms/step | rigid / particle |');
console.log('|----:|---------:|---------:|------:|');
for (const r of rows) console.log(r);
