/**
 * The physics benchmark of issue 3: the same scenes in Marionette, Rapier and Jolt, side by side in one
 * run. Per scene and engine: median wall time per step over the timed steps (after the warm-up), joint
 * drift at t = qualityAtStep·dt, and the first time copy 0's head drops below FALL_HEIGHT_M.
 *
 * Runs in Node (performance.now); `marionette bench` and `npm run bench` both call runBenchmark.
 */
import ragdollJson from './scenes/ragdoll11.json';
import { measureDrift, type BenchEngine, type BenchWorld, type EngineName } from '../shared/bench/engine';
import { parseRagdollFile, type RagdollFile } from '../shared/bench/ragdollFile';
import { buildBoxPile, buildRagdollScene, type BenchScene } from '../shared/bench/scene';
import { loadEngine } from './engines';

/** Head height (m) below which the ragdoll counts as fallen (issue 3). */
export const FALL_HEIGHT_M = 1.2;

export type SceneName = 'ragdoll11' | 'pile500';

export interface BenchRow {
  scene: string;
  n: number;
  engine: EngineName;
  motors: boolean;
  msPerStep: number;
  driftMeanM: number | null;
  driftMaxM: number | null;
  fallTimeS: number | null;
  settings: string;
}

/** Below this depth under the ground's top face (m) a body has fallen through the ground. */
const THROUGH_GROUND_M = 0.5;
/** A head rise above its start larger than this (m) means the world added energy. */
const HEAD_RISE_WARNING_M = 0.2;

export interface BenchResult {
  results: BenchRow[];
  /** Marionette's ms/step ÷ (rows × velocity iterations × substeps) in ns, for ragdoll11 × the largest N
   *  with motors on; null when Marionette did not run. */
  nsPerRowIteration: number | null;
  /** Sanity warnings (a world that blew up or fell through the ground); not part of the JSON line. */
  warnings?: string[];
}

export interface BenchOptions {
  engines?: readonly EngineName[];
  /** Ragdoll copy counts (default: the file's 1, 16, 128). */
  counts?: readonly number[];
  scenes?: readonly SceneName[];
  /** Motors on, off, or both (default both) for the ragdoll scenes. */
  motors?: readonly boolean[];
  warmupSteps?: number;
  timedSteps?: number;
  /** Progress lines (scene, engine, time taken). */
  onProgress?: (line: string) => void;
}

/** The repository's copy of ../shared/bench/ragdoll11.json, checked. */
export function loadRagdollFile(): RagdollFile {
  return parseRagdollFile(ragdollJson, 'bench/scenes/ragdoll11.json');
}

function median(values: Float64Array): number {
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Measured {
  msPerStep: number;
  driftMeanM: number | null;
  driftMaxM: number | null;
  fallTimeS: number | null;
  rowIterations: number | null;
  /** Lowest body centre (m) after the last step: far below the ground top means missing contacts. */
  lowestY: number;
  /** Highest head rise above its start (m) during the run: a ragdoll with no thrusters cannot gain height. */
  headRiseM: number;
}

/**
 * Step one world warmup + timed times. Only step() is inside the timed region; the head height is read
 * between steps and the drift once, right after step `qualityAtStep` (or after the last step of a
 * shorter run).
 */
export function measureWorld(world: BenchWorld, scene: BenchScene, warmupSteps: number, timedSteps: number, qualityAtStep: number): Measured {
  const total = warmupSteps + timedSteps;
  const qualityStep = Math.min(qualityAtStep, total);
  const times = new Float64Array(timedSteps);
  const position: [number, number, number] = [0, 0, 0];
  const rotation: [number, number, number, number] = [0, 0, 0, 1];
  let fallTimeS: number | null = null;
  let headRiseM = 0;
  const headStartY = scene.headBody === null ? 0 : scene.bodies[scene.headBody]!.position[1];
  let drift: ReturnType<typeof measureDrift> = null;
  for (let k = 1; k <= total; k++) {
    const t0 = performance.now();
    world.step();
    const t1 = performance.now();
    if (k > warmupSteps) times[k - warmupSteps - 1] = t1 - t0;
    if (scene.headBody !== null) {
      world.getPose(scene.headBody, position, rotation);
      if (fallTimeS === null && !(position[1] >= FALL_HEIGHT_M)) fallTimeS = k * scene.dt; // NaN counts as fallen
      headRiseM = Math.max(headRiseM, position[1] - headStartY);
    }
    if (k === qualityStep) drift = measureDrift(world, scene);
  }
  let lowestY = Infinity;
  for (let i = 0; i < scene.bodies.length; i++) {
    world.getPose(i, position, rotation);
    lowestY = Number.isNaN(position[1]) ? NaN : Math.min(lowestY, position[1]);
    if (Number.isNaN(lowestY)) break;
  }
  return {
    lowestY,
    headRiseM,
    msPerStep: median(times),
    driftMeanM: drift ? drift.meanM : null,
    driftMaxM: drift ? drift.maxM : null,
    fallTimeS,
    rowIterations: world.rowIterations(),
  };
}

export async function runBenchmark(options: BenchOptions = {}): Promise<BenchResult> {
  const file = loadRagdollFile();
  const engineNames = options.engines ?? ['marionette', 'rapier', 'jolt'];
  const counts = options.counts ?? file.bench.counts;
  const scenes = options.scenes ?? ['ragdoll11', 'pile500'];
  const motorModes = options.motors ?? [true, false];
  const warmup = options.warmupSteps ?? file.bench.warmupSteps;
  const timed = options.timedSteps ?? file.bench.timedSteps;
  if (!Number.isInteger(warmup) || warmup < 0) throw new Error(`bench: warm-up steps must be a non-negative integer (got ${warmup})`);
  if (!Number.isInteger(timed) || timed < 1) throw new Error(`bench: timed steps must be a positive integer (got ${timed})`);
  const progress = options.onProgress ?? (() => undefined);

  const engines: BenchEngine[] = [];
  for (const name of engineNames) engines.push(await loadEngine(name));

  const sceneList: BenchScene[] = [];
  if (scenes.includes('ragdoll11')) {
    for (const n of counts) for (const motors of motorModes) sceneList.push(buildRagdollScene(file, n, motors));
  }
  if (scenes.includes('pile500')) sceneList.push(buildBoxPile(file));

  const results: BenchRow[] = [];
  const warnings: string[] = [];
  let nsPerRowIteration: number | null = null;
  const largest = Math.max(...counts);
  for (const scene of sceneList) {
    for (const engine of engines) {
      const started = performance.now();
      const world = engine.create(scene);
      let m: Measured;
      try {
        m = measureWorld(world, scene, warmup, timed, file.bench.qualityAtStep);
      } finally {
        world.dispose();
      }
      results.push({
        scene: scene.name,
        n: scene.n,
        engine: engine.name,
        motors: scene.motors,
        msPerStep: m.msPerStep,
        driftMeanM: m.driftMeanM,
        driftMaxM: m.driftMaxM,
        fallTimeS: m.fallTimeS,
        settings: world.settings,
      });
      const groundTop = scene.ground.position[1] + scene.ground.halfExtents[1];
      const where = `${engine.name}, ${scene.name} ×${scene.n} motors ${scene.motors ? 'on' : 'off'}`;
      if (Number.isNaN(m.lowestY)) warnings.push(`${where}: non-finite body positions (the world blew up)`);
      else if (m.lowestY < groundTop - THROUGH_GROUND_M) {
        warnings.push(`${where}: a body ended at y = ${m.lowestY.toFixed(2)} m, through the ground (no ground contact?): its figures are not comparable`);
      }
      if (m.headRiseM > HEAD_RISE_WARNING_M) {
        warnings.push(`${where}: copy 0's head rose ${m.headRiseM.toFixed(2)} m above its start (energy gain: the world pushed the ragdoll up)`);
      }
      if (engine.name === 'marionette' && scene.name === 'ragdoll11' && scene.motors && scene.n === largest && m.rowIterations) {
        nsPerRowIteration = (m.msPerStep * 1e6) / m.rowIterations;
      }
      progress(`${scene.name} ×${scene.n} motors ${scene.motors ? 'on' : 'off'}  ${engine.name}: ${m.msPerStep.toFixed(3)} ms/step (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  }
  return { results, nsPerRowIteration, warnings };
}
