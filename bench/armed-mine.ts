/**
 * Armed Mine benchmark (issue 5): frames simulated per second with the gait + IK and recording (one frame
 * per step into a FrameRecorder — typed arrays, trace objects built on demand), on one core. Prints the
 * ratio to real time (target ≥ 100×), where the time goes, and for comparison the cost of building a
 * TraceFrame object every step with sim.frame().
 *
 *   npx tsx bench/armed-mine.ts [seconds=60] [reps=3]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadRig } from '../shared/rig';
import { createSimulation } from '../shared/runtime/simulation';
import { cyclicPathControllerFactory } from '../shared/gait/register';
import type { TraceFrame } from '../shared/runtime/trace';
import { FrameRecorder } from '../shared/runtime/recorder';

const seconds = Number(process.argv[2] ?? 60);
const path = fileURLToPath(new URL('../assets/creatures/armed-mine.rig.json', import.meta.url));
const rig = loadRig(JSON.parse(readFileSync(path, 'utf8')), { source: path });

function run(record: 'recorder' | 'frame objects' | 'none'): { fps: number; gaitUs: number } {
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
  const recorder = new FrameRecorder(sim, { capacity: steps });
  // Warm the JIT up for 5 simulated seconds, then time.
  for (let i = 0; i < Math.round(5 / sim.dt); i++) sim.step();
  gaitMs = 0;
  const t0 = performance.now();
  for (let i = 0; i < steps; i++) {
    sim.step();
    if (record === 'recorder') recorder.record();
    else if (record === 'frame objects') frames.push(sim.frame());
  }
  const ms = performance.now() - t0;
  return { fps: (steps / ms) * 1000, gaitUs: (gaitMs / steps) * 1000 };
}

const dt = rig.simulation.dt;
// The machine is shared: interleave the modes and keep each one's best of `reps` runs (the run least
// disturbed by other processes), so the ratios compare like with like.
const reps = Number(process.argv[3] ?? 3);
const best = { recorder: { fps: 0, gaitUs: 0 }, none: { fps: 0, gaitUs: 0 }, 'frame objects': { fps: 0, gaitUs: 0 } };
for (let r = 0; r < reps; r++) {
  for (const mode of ['recorder', 'none', 'frame objects'] as const) {
    const x = run(mode);
    if (x.fps > best[mode].fps) best[mode] = x;
  }
}
const full = best.recorder, noRecord = best.none, objects = best['frame objects'];
// The recording is real: the last frame decodes to the trace format.
const check = createSimulation(rig, { controllers: { cyclicPath: cyclicPathControllerFactory } });
const rec = new FrameRecorder(check, { capacity: 1 });
check.step(); rec.record();
if (JSON.stringify(rec.frame(0)) !== JSON.stringify(check.frame())) throw new Error('FrameRecorder frame differs from sim.frame()');
const line = (label: string, r: { fps: number }) => `${label.padEnd(34)} ${r.fps.toFixed(0).padStart(7)} frames/s  ${(r.fps * dt).toFixed(1).padStart(6)}× real time`;
console.log(`Armed Mine crawling, dt = ${(dt * 1000).toFixed(2)} ms, ${rig.simulation.substeps} substeps, ${rig.simulation.velocityIterations} iterations, ${seconds} s simulated per run`);
console.log(line('gait + IK + physics + recording', full));
console.log(line('gait + IK + physics', noRecord));
console.log(line('… recording sim.frame() objects', objects));
const stepUs = 1e6 / noRecord.fps;
console.log(`per step: ${stepUs.toFixed(0)} µs = gait+IK ${noRecord.gaitUs.toFixed(0)} µs + physics ${(stepUs - noRecord.gaitUs).toFixed(0)} µs; recording adds ${(1e6 / full.fps - stepUs).toFixed(1)} µs (sim.frame() objects: ${(1e6 / objects.fps - stepUs).toFixed(1)} µs)`);
console.log(`target ≥ 100× real time: ${full.fps * dt >= 100 ? 'met' : 'NOT met'}`);
