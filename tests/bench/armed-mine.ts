/**
 * Armed Mine benchmark (issue 5): frames simulated per second with the gait + IK and recording (one trace
 * frame per step), on one core. Prints the ratio to real time (target ≥ 100×) and where the time goes.
 *
 *   npx tsx tests/bench/armed-mine.ts [seconds=60]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadRig } from '../../shared/rig';
import { createSimulation } from '../../shared/runtime/simulation';
import { cyclicPathControllerFactory } from '../../shared/gait/register';
import type { TraceFrame } from '../../shared/runtime/trace';

const seconds = Number(process.argv[2] ?? 60);
const path = fileURLToPath(new URL('../../assets/creatures/armed-mine.rig.json', import.meta.url));
const rig = loadRig(JSON.parse(readFileSync(path, 'utf8')), { source: path });

function run(record: boolean): { fps: number; gaitUs: number } {
  let gaitMs = 0;
  const sim = createSimulation(rig, {
    controllers: {
      cyclicPath: (config, ctx) => {
        const inner = cyclicPathControllerFactory(config, ctx);
        // Time the controller (path, steering, IK, motor targets) inside the step.
        return { ...inner, get phase() { return inner.phase; }, step(st) { const t = performance.now(); inner.step(st); gaitMs += performance.now() - t; } };
      },
    },
  });
  sim.setTarget([0, 0, 5]);
  const steps = Math.round(seconds / sim.dt);
  const frames: TraceFrame[] = [];
  // Warm the JIT up for 5 simulated seconds, then time.
  for (let i = 0; i < Math.round(5 / sim.dt); i++) sim.step();
  gaitMs = 0;
  const t0 = performance.now();
  for (let i = 0; i < steps; i++) {
    sim.step();
    if (record) frames.push(sim.frame());
  }
  const ms = performance.now() - t0;
  return { fps: (steps / ms) * 1000, gaitUs: (gaitMs / steps) * 1000 };
}

const dt = rig.simulation.dt;
const full = run(true), noRecord = run(false);
const line = (label: string, r: { fps: number }) => `${label.padEnd(34)} ${r.fps.toFixed(0).padStart(7)} frames/s  ${(r.fps * dt).toFixed(1).padStart(6)}× real time`;
console.log(`Armed Mine crawling, dt = ${(dt * 1000).toFixed(2)} ms, ${rig.simulation.substeps} substeps, ${rig.simulation.velocityIterations} iterations, ${seconds} s simulated per run`);
console.log(line('gait + IK + physics + recording', full));
console.log(line('gait + IK + physics', noRecord));
const stepUs = 1e6 / noRecord.fps;
console.log(`per step: ${stepUs.toFixed(0)} µs = gait+IK ${noRecord.gaitUs.toFixed(0)} µs + physics ${(stepUs - noRecord.gaitUs).toFixed(0)} µs; recording adds ${(1e6 / full.fps - stepUs).toFixed(0)} µs`);
console.log(`target ≥ 100× real time: ${full.fps * dt >= 100 ? 'met' : 'NOT met'}`);
