/**
 * Side-by-side benchmark (issue 7): the humanoid (assets/creatures/humanoid.rig.json) as a limp ragdoll
 * under the rigid solver (createSimulation → World: sequential impulses, motors switched off) and under the
 * particle solver (particleSceneFromRig → createParticleSimulation: Jakobsen/Verlet), dropped onto the
 * floor. N independent copies per solver (no ragdoll–ragdoll contact in either); ms per step of the rig's
 * dt for all N together, median of 7 timed batches (alternating solvers) after a warm-up.
 *
 *   npx tsx bench/particles-vs-rigid.ts [--quick]
 *
 * Not a test: timings go to stdout (and docs/particles.md), no thresholds.
 */
import { readFileSync } from 'node:fs';
import { createParticleSimulation } from '../shared/physics/particles';
import { particleSceneFromRig } from '../shared/runtime/particles';
import { loadRig, type RigDocument } from '../shared/rig';
import { createSimulation } from '../shared/runtime/simulation';

const quick = process.argv.includes('--quick');
const rigPath = new URL('../assets/creatures/humanoid.rig.json', import.meta.url);
const rig = loadRig(readFileSync(rigPath, 'utf8'), { source: 'humanoid.rig.json' });
const limp: RigDocument = {
  ...rig,
  controllers: [],
  joints: rig.joints.map((j) => ('motor' in j ? { ...j, motor: { ...j.motor, mode: 'off' as const, frictionTorque: 0 } } : j)),
};

interface Stepper { step(): void }
/** ms per step for N copies of each solver, median of 7 batches. The two solvers' batches alternate, so
 *  both see the same machine load (the build machine is 2 shared cores; absolute times swing ×3 with
 *  the other jobs, the ratio much less). */
function timePair(makeA: () => Stepper, makeB: () => Stepper, n: number, steps: number): [number, number] {
  const a = Array.from({ length: n }, makeA), b = Array.from({ length: n }, makeB);
  const batch = (sims: Stepper[]) => {
    const t0 = performance.now();
    for (let s = 0; s < steps; s++) for (const sim of sims) sim.step();
    return (performance.now() - t0) / steps;
  };
  batch(a); batch(b); // warm-up (JIT, and the fall onto the floor so contacts are active)
  const ta: number[] = [], tb: number[] = [];
  for (let k = 0; k < 7; k++) { ta.push(batch(a)); tb.push(batch(b)); }
  const median = (v: number[]) => v.sort((x, y) => x - y)[v.length >> 1]!;
  return [median(ta), median(tb)];
}

const scene = particleSceneFromRig(limp);
const rows: string[] = [];
for (const n of [1, 128]) {
  const steps = quick ? (n === 1 ? 60 : 5) : n === 1 ? 300 : 20;
  const [rigid, particle] = timePair(() => createSimulation(limp), () => createParticleSimulation(scene), n, steps);
  rows.push(`| ${String(n).padStart(3)} | ${rigid.toFixed(3).padStart(8)} | ${particle.toFixed(3).padStart(8)} | ${(rigid / particle).toFixed(2).padStart(5)} |`);
}
const s = scene.settings;
console.log(`humanoid: ${rig.bodies.length} bodies / ${rig.joints.length} joints (rigid), ${scene.particles.length} particles / ${scene.bones.length} bones / ${scene.constraints.length} limits (particle); dt = ${(1 / rig.simulation.dt).toFixed(0)} Hz`);
console.log(`rigid: World, ${rig.simulation.substeps} substep(s), ${rig.simulation.velocityIterations} velocity + ${rig.simulation.positionIterations} position iterations, motors off; particle: ${s.iterations} relaxation iterations`);
console.log('|   N | rigid ms/step | particle ms/step | rigid / particle |');
console.log('|----:|---------:|---------:|------:|');
for (const r of rows) console.log(r);
