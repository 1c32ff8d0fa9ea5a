/**
 * Scaling check for issue 3's "cost from N = 16 to 128 within 10 % of linear", measured so that a noisy,
 * shared 2-core machine does not decide it: `npx tsx bench/scaling.ts [reps=5] [steps=300] [motors=on]`.
 * Runs of N = 16 and N = 128 are INTERLEAVED (16, 128, 16, 128, …; a load burst hits both), each a fresh
 * world with 60 warm-up steps; per run it keeps the median and the minimum of the per-step times. The ratio
 * (t₁₂₈ / t₁₆) / 8 is reported from the median of the run medians and from the minimum of the minimums
 * (the least-disturbed estimate).
 */
import { createMarionetteWorld } from '../shared/bench/marionetteEngine';
import { buildRagdollScene } from '../shared/bench/scene';
import { World } from '../shared/physics/world';
import { loadRagdollFile } from './runBenchmark';

function run(n: number, motors: boolean, steps: number): { median: number; min: number } {
  const bw = createMarionetteWorld((s) => new World(s), buildRagdollScene(loadRagdollFile(), n, motors));
  for (let i = 0; i < 60; i++) bw.step();
  const t = new Float64Array(steps);
  for (let i = 0; i < steps; i++) { const t0 = performance.now(); bw.step(); t[i] = performance.now() - t0; }
  t.sort();
  return { median: t[steps >> 1]!, min: t[0]! };
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
const reps = Number(process.argv[2] ?? 5), steps = Number(process.argv[3] ?? 300), motors = (process.argv[4] ?? 'on') !== 'off';
const r: Record<number, { median: number[]; min: number[] }> = { 16: { median: [], min: [] }, 128: { median: [], min: [] } };
for (let k = 0; k < reps; k++) {
  for (const n of [16, 128]) { const m = run(n, motors, steps); r[n]!.median.push(m.median); r[n]!.min.push(m.min); }
}
const fmt = (a: number[]) => a.map((x) => x.toFixed(3)).join(' ');
for (const n of [16, 128]) console.log(`N=${n}: run medians ${fmt(r[n]!.median)} ms; run minimums ${fmt(r[n]!.min)} ms`);
const medRatio = median(r[128]!.median) / median(r[16]!.median) / 8;
const minRatio = Math.min(...r[128]!.min) / Math.min(...r[16]!.min) / 8;
console.log(`scaling (t128/t16)/8: from medians ${medRatio.toFixed(3)}, from minimums ${minRatio.toFixed(3)} (target ≤ 1.10), motors ${motors ? 'on' : 'off'}`);
