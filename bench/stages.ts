/**
 * Where the rigid World's step spends its time, stage by stage (World.setStageTiming, WorldStats.stageMs), on
 * the benchmark scenes: the median of each stage over the timed steps, its share of the sum, and per joint or
 * per row where that is the stage's unit. Marionette alone in its process (no peer stepped beside it).
 *
 *   npx tsx bench/stages.ts [--n 1,16,128] [--motors on,off] [--pile] [--steps 600] [--warmup 300]
 */
import { loadRagdollFile } from './runBenchmark';
import { buildBoxPile, buildRagdollScene, type BenchScene } from './scene';
import { createMarionetteWorld } from './marionetteEngine';
import { World } from '../shared/physics/world';
import { STEP_STAGES, type StepStage } from '../shared/physics/types';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

const counts = arg('n', '1,128').split(',').map(Number);
const motorModes = arg('motors', 'on,off').split(',').map((m) => m === 'on');
const steps = Number(arg('steps', '600')), warmup = Number(arg('warmup', '300'));
for (const [name, x] of [['--n', counts], ['--steps', [steps]], ['--warmup', [warmup]]] as const) {
  if (!x.every((v) => Number.isInteger(v) && v >= 0) || (name !== '--warmup' && x.some((v) => v === 0))) {
    console.error(`stages: ${name} must be positive whole numbers, got ${x.join(',')}`);
    process.exit(2);
  }
}

const file = loadRagdollFile();
const scenes: BenchScene[] = [];
for (const n of counts) for (const motors of motorModes) scenes.push(buildRagdollScene(file, n, motors));
if (process.argv.includes('--pile')) scenes.push(buildBoxPile(file));

const median = (a: number[]) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]!; };
for (const scene of scenes) {
  let world: World | null = null;
  const bench = createMarionetteWorld((settings) => (world = new World(settings)), scene);
  const w = world as unknown as World;
  for (let k = 0; k < warmup; k++) bench.step();
  w.setStageTiming(() => performance.now());
  const per: Record<StepStage, number[]> = Object.fromEntries(STEP_STAGES.map((s) => [s, []])) as unknown as Record<StepStage, number[]>;
  const whole: number[] = [];
  for (let k = 0; k < steps; k++) {
    const t0 = performance.now();
    bench.step();
    whole.push(performance.now() - t0);
    const ms = w.getStats().stageMs!;
    for (const s of STEP_STAGES) per[s].push(ms[s]);
  }
  const stats = w.getStats();
  bench.dispose();
  const med = STEP_STAGES.map((s) => median(per[s]));
  const sum = med.reduce((a, b) => a + b, 0);
  const label = scene.name === 'ragdoll11' ? `ragdoll11 × ${scene.n}, motors ${scene.motors ? 'on' : 'off'}` : scene.name;
  console.log(`\n${label}: ${stats.joints} joints, ${stats.rows} rows, ${stats.contacts} contact points; step median ${median(whole).toFixed(3)} ms, sum of the stage medians ${sum.toFixed(3)} ms`);
  STEP_STAGES.forEach((s, i) => {
    const m = med[i]!;
    const unit = (s === 'solveVelocities' || s === 'relax') && stats.rows > 0
      ? `${((m * 1e6) / (stats.rows * (s === 'relax' ? w.settings.positionIterations : stats.velocityIterations) * stats.substeps)).toFixed(1)} ns per row-sweep`
      : (s === 'prepareJoints' || s === 'projectPositions') && stats.joints > 0
        ? `${((m * 1e6) / (stats.joints * stats.substeps * (s === 'projectPositions' ? Math.max(1, w.settings.positionIterations) : 1))).toFixed(0)} ns per joint${s === 'projectPositions' ? ' and iteration' : ''}`
        : '';
    console.log(`  ${s.padEnd(20)} ${(m * 1000).toFixed(1).padStart(9)} µs ${((100 * m) / sum).toFixed(1).padStart(5)} %  ${unit}`);
  });
}
