/**
 * The physics benchmark of issue 3: the same scenes in Marionette, Rapier and Jolt, side by side in one
 * run, the engines of each scene stepped in turn (one step each, rotating who goes first). Per scene and
 * engine: median wall time per step over the timed steps (after the warm-up), joint
 * drift at t = qualityAtStep·dt, and the first time copy 0's head drops below FALL_HEIGHT_M.
 *
 * Runs in Node (performance.now); `marionette bench` and `npm run bench` both call runBenchmark.
 */
import ragdollJson from './scenes/ragdoll11.json';
import { measureDrift, type BenchEngine, type BenchWorld, type EngineName } from './engine';
import { parseRagdollFile, type RagdollFile } from './ragdollFile';
import { buildBoxPile, buildRagdollScene, type BenchScene } from './scene';
import { loadEngine } from './engines';
import type { HostReply, HostRequest, SceneKey } from './engineHostProtocol';
import { Worker } from 'node:worker_threads';

/** Head height (m) below which the ragdoll counts as fallen (issue 3). */
export const FALL_HEIGHT_M = 1.2;

export type SceneName = 'ragdoll11' | 'pile500';

/**
 * The engines' code is warmed before anything is measured: each engine steps a throwaway ragdoll11 × 1 this
 * many steps with its motors on, then as many with them off, and the worlds are dropped. The scene file's
 * 60 warm-up steps are the measured world's own (it falls, its contacts start); they do not warm a JIT. In
 * V8 Marionette's solver functions reach the optimising compiler over ≈ 500 steps of one ragdoll (a step of
 * ≈ 0.9 ms at first, ≈ 0.04 ms after), so without this the first case (× 1) timed V8's compilation rather
 * than the solver (docs/physics.md "Speed"). The WebAssembly peers compile when loaded; they get the same
 * warm-up all the same.
 */
export const CODE_WARMUP_STEPS = 1000;

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
  /** Fastest single timed step (ms) per row, keyed by minKey(); not part of the JSON line. */
  minMsPerStep?: Record<string, number>;
}

/** Key of a result row in BenchResult.minMsPerStep. */
export function minKey(scene: string, n: number, engine: string, motors: boolean): string {
  return `${scene}|${n}|${engine}|${motors ? 'on' : 'off'}`;
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
  /** Steps each engine first runs on a throwaway ragdoll11 × 1, motors on and then off, before any measured
   *  world is made (default CODE_WARMUP_STEPS; 0: none, the protocol before 2026-11-28). */
  codeWarmupSteps?: number;
  /** Progress lines (scene, engine, time taken). */
  onProgress?: (line: string) => void;
  /**
   * 'worker': each engine in its own worker thread (its own V8 isolate and heap; bench/engineHost.ts), the
   * engines of a scene still stepped in turn, one step each — what `npm run bench` does. 'shared' (default):
   * every engine in this isolate, the protocol before 2026-11-28 (and the one a bundled CLI can run). An
   * idle MuJoCo ragdoll11 × 128 model in the same isolate slowed Marionette's step by 15–100 %
   * (docs/physics.md "Speed").
   */
  isolation?: 'shared' | 'worker';
}

/** bench/scenes/ragdoll11.json, checked: the repository's copy of the common benchmark scene that sits beside
 *  the checkout in ../shared/bench/ (outside this repository — not its shared/ folder). */
export function loadRagdollFile(): RagdollFile {
  return parseRagdollFile(ragdollJson, 'bench/scenes/ragdoll11.json');
}

function median(values: Float64Array): number {
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Measured {
  msPerStep: number;
  /** Fastest timed step (ms): the least load-disturbed estimate of the step's cost. */
  minMsPerStep: number;
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
/**
 * One world's measurement, advanced one step at a time so runBenchmark can interleave the engines step by
 * step: on a shared machine a load burst then slows all three engines of a scene alike instead of whichever
 * happened to be running (sequential runs gave the same engine 0.9–2.3× its quiet time from one run to the
 * next at load 5–15).
 */
export class WorldMeasurer {
  private k = 0;
  private readonly times: Float64Array;
  private readonly position: [number, number, number] = [0, 0, 0];
  private readonly rotation: [number, number, number, number] = [0, 0, 0, 1];
  private fallTimeS: number | null = null;
  private headRiseM = 0;
  private readonly headStartY: number;
  private drift: ReturnType<typeof measureDrift> = null;
  readonly total: number;
  private readonly qualityStep: number;

  constructor(private readonly world: BenchWorld, private readonly scene: BenchScene, private readonly warmupSteps: number, timedSteps: number, qualityAtStep: number) {
    this.total = warmupSteps + timedSteps;
    this.qualityStep = Math.min(qualityAtStep, this.total);
    this.times = new Float64Array(timedSteps);
    this.headStartY = scene.headBody === null ? 0 : scene.bodies[scene.headBody]!.position[1];
  }

  /** Step k (1-based) of the run: timed after the warm-up, then fall height and drift bookkeeping. */
  step(): void {
    const k = ++this.k, world = this.world, scene = this.scene;
    const t0 = performance.now();
    world.step();
    const t1 = performance.now();
    if (k > this.warmupSteps) this.times[k - this.warmupSteps - 1] = t1 - t0;
    if (scene.headBody !== null) {
      world.getPose(scene.headBody, this.position, this.rotation);
      if (this.fallTimeS === null && !(this.position[1] >= FALL_HEIGHT_M)) this.fallTimeS = k * scene.dt; // NaN counts as fallen
      this.headRiseM = Math.max(this.headRiseM, this.position[1] - this.headStartY);
    }
    if (k === this.qualityStep) this.drift = measureDrift(world, scene);
  }

  result(): Measured {
    const world = this.world, scene = this.scene, position = this.position, rotation = this.rotation;
    let lowestY = Infinity;
    for (let i = 0; i < scene.bodies.length; i++) {
      world.getPose(i, position, rotation);
      lowestY = Number.isNaN(position[1]) ? NaN : Math.min(lowestY, position[1]);
      if (Number.isNaN(lowestY)) break;
    }
    return {
      lowestY,
      headRiseM: this.headRiseM,
      msPerStep: median(this.times),
      minMsPerStep: this.times.reduce((a, t) => Math.min(a, t), Infinity),
      driftMeanM: this.drift ? this.drift.meanM : null,
      driftMaxM: this.drift ? this.drift.maxM : null,
      fallTimeS: this.fallTimeS,
      rowIterations: world.rowIterations(),
    };
  }
}

export function measureWorld(world: BenchWorld, scene: BenchScene, warmupSteps: number, timedSteps: number, qualityAtStep: number): Measured {
  const m = new WorldMeasurer(world, scene, warmupSteps, timedSteps, qualityAtStep);
  for (let k = 0; k < m.total; k++) m.step();
  return m.result();
}

export async function runBenchmark(options: BenchOptions = {}): Promise<BenchResult> {
  const file = loadRagdollFile();
  const engineNames = options.engines ?? ['marionette', 'articulated', 'rapier', 'jolt', 'mujoco'];
  const counts = options.counts ?? file.bench.counts;
  const scenes = options.scenes ?? ['ragdoll11', 'pile500'];
  const motorModes = options.motors ?? [true, false];
  const warmup = options.warmupSteps ?? file.bench.warmupSteps;
  const timed = options.timedSteps ?? file.bench.timedSteps;
  if (!Number.isInteger(warmup) || warmup < 0) throw new Error(`bench: warm-up steps must be a non-negative integer (got ${warmup})`);
  if (!Number.isInteger(timed) || timed < 1) throw new Error(`bench: timed steps must be a positive integer (got ${timed})`);
  const progress = options.onProgress ?? (() => undefined);

  const codeWarmup = options.codeWarmupSteps ?? CODE_WARMUP_STEPS;
  if (!Number.isInteger(codeWarmup) || codeWarmup < 0) throw new Error(`bench: code warm-up steps must be a non-negative integer (got ${codeWarmup})`);
  const keys = sceneKeys(scenes, counts, motorModes);
  if (options.isolation === 'worker') return runIsolated(engineNames, keys, counts, codeWarmup, warmup, timed, progress);
  const allEngines: BenchEngine[] = [];
  for (const name of engineNames) allEngines.push(await loadEngine(name));
  if (codeWarmup > 0) {
    const started = performance.now();
    for (const engine of allEngines) warmEngineCode(engine, file, codeWarmup);
    progress(`code warm-up: ${codeWarmup} steps of ragdoll11 × 1, motors on and off, per engine: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }

  const sceneList = keys.map((key) => benchSceneOf(file, key));
  const report = new Report(counts, progress);
  for (const scene of sceneList) {
    // All engines' worlds of this scene at once, stepped in turn (the first engine rotating each step), so
    // every engine sees the same machine load; each world still gets its own median of its own steps.
    const started = performance.now();
    const engines = allEngines.filter((engine) => engine.supports?.(scene) ?? true);
    const worlds = engines.map((engine) => engine.create(scene));
    const measurers = worlds.map((world) => new WorldMeasurer(world, scene, warmup, timed, file.bench.qualityAtStep));
    let measured: Measured[];
    try {
      const total = measurers[0]!.total, E = measurers.length;
      for (let k = 0; k < total; k++) for (let e = 0; e < E; e++) measurers[(k + e) % E]!.step();
      measured = measurers.map((m) => m.result());
    } finally {
      for (const world of worlds) world.dispose();
    }
    engines.forEach((engine, e) => report.add(scene, engine.name, worlds[e]!.settings, measured[e]!));
    progress(`${scene.name} ×${scene.n} motors ${scene.motors ? 'on' : 'off'}: ${((performance.now() - started) / 1000).toFixed(1)} s for ${engines.length} engines interleaved`);
  }
  return report.result();
}

/** The cases of a run, in order: ragdoll11 for each count and motor mode, then pile500. */
function sceneKeys(scenes: readonly SceneName[], counts: readonly number[], motorModes: readonly boolean[]): SceneKey[] {
  const keys: SceneKey[] = [];
  if (scenes.includes('ragdoll11')) for (const n of counts) for (const motors of motorModes) keys.push({ name: 'ragdoll11', n, motors });
  if (scenes.includes('pile500')) keys.push({ name: 'pile500', n: 0, motors: false });
  return keys;
}

/** The scene of a case (a worker builds its own from the key: bench/engineHost.ts). */
export function benchSceneOf(file: RagdollFile, key: SceneKey): BenchScene {
  return key.name === 'pile500' ? buildBoxPile(file) : buildRagdollScene(file, key.n, key.motors);
}

/** The code warm-up of one engine (CODE_WARMUP_STEPS): `steps` steps of a throwaway ragdoll11 × 1 with motors
 *  on, then as many with them off, the worlds dropped after. */
export function warmEngineCode(engine: BenchEngine, file: RagdollFile, steps: number): void {
  for (const motors of [true, false]) {
    const scene = buildRagdollScene(file, 1, motors);
    if (!(engine.supports?.(scene) ?? true)) continue;
    const world = engine.create(scene);
    try { for (let k = 0; k < steps; k++) world.step(); } finally { world.dispose(); }
  }
}

/** The rows, warnings and figures of a run, one measured world at a time. */
class Report {
  private readonly results: BenchRow[] = [];
  private readonly warnings: string[] = [];
  private readonly minMsPerStep: Record<string, number> = {};
  private nsPerRowIteration: number | null = null;
  private readonly largest: number;
  constructor(counts: readonly number[], private readonly progress: (line: string) => void) { this.largest = Math.max(...counts); }

  add(scene: BenchScene, engine: EngineName, settings: string, m: Measured): void {
    const { results, warnings, minMsPerStep, largest, progress } = this;
    results.push({
      scene: scene.name,
      n: scene.n,
      engine,
      motors: scene.motors,
      msPerStep: m.msPerStep,
      driftMeanM: m.driftMeanM,
      driftMaxM: m.driftMaxM,
      fallTimeS: m.fallTimeS,
      settings,
    });
    minMsPerStep[minKey(scene.name, scene.n, engine, scene.motors)] = m.minMsPerStep;
    const groundTop = scene.ground.position[1] + scene.ground.halfExtents[1];
    const where = `${engine}, ${scene.name} ×${scene.n} motors ${scene.motors ? 'on' : 'off'}`;
    if (Number.isNaN(m.lowestY)) warnings.push(`${where}: non-finite body positions (the world blew up)`);
    else if (m.lowestY < groundTop - THROUGH_GROUND_M) {
      warnings.push(`${where}: a body ended at y = ${m.lowestY.toFixed(2)} m, through the ground (no ground contact?): its figures are not comparable`);
    }
    if (m.headRiseM > HEAD_RISE_WARNING_M) {
      warnings.push(`${where}: copy 0's head rose ${m.headRiseM.toFixed(2)} m above its start (energy gain: the world pushed the ragdoll up)`);
    }
    if (engine === 'marionette' && scene.name === 'ragdoll11' && scene.motors && scene.n === largest && m.rowIterations) {
      this.nsPerRowIteration = (m.msPerStep * 1e6) / m.rowIterations;
    }
    progress(`${scene.name} ×${scene.n} motors ${scene.motors ? 'on' : 'off'}  ${engine}: ${m.msPerStep.toFixed(3)} ms/step`);
  }

  result(): BenchResult {
    return { results: this.results, nsPerRowIteration: this.nsPerRowIteration, warnings: this.warnings, minMsPerStep: this.minMsPerStep };
  }
}

/** One engine's worker thread (engineHost.ts) and its replies in order. */
class EngineThread {
  private readonly queue: HostReply[] = [];
  private readonly waiting: ((m: HostReply) => void)[] = [];
  private failure: Error | null = null;
  readonly worker: Worker;
  constructor(readonly name: EngineName, flags: Int32Array, slot: number) {
    const url = new URL('./engineHost.ts', import.meta.url).href;
    // tsx's loader, registered inside the thread (a worker does not inherit it), as bench/previewPool.ts.
    this.worker = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url)}); })`, { eval: true, workerData: { engine: name, flags, slot } });
    this.worker.on('message', (m: HostReply) => { const w = this.waiting.shift(); if (w) w(m); else this.queue.push(m); });
    this.worker.on('error', (e) => { this.failure = e; for (const w of this.waiting.splice(0)) w({ type: 'error', message: `${name}: ${e.message}` }); });
  }
  post(m: HostRequest): void { this.worker.postMessage(m); }
  async next(): Promise<HostReply> {
    if (this.failure) throw new Error(`bench: the ${this.name} worker failed: ${this.failure.message}`);
    const m = this.queue.shift() ?? await new Promise<HostReply>((r) => this.waiting.push(r));
    if (m.type === 'error') throw new Error(`bench: ${m.message}`);
    return m;
  }
}

async function runIsolated(engineNames: readonly EngineName[], keys: readonly SceneKey[], counts: readonly number[], codeWarmup: number,
  warmup: number, timed: number, progress: (line: string) => void): Promise<BenchResult> {
  const file = loadRagdollFile();
  const flags = new Int32Array(new SharedArrayBuffer(4 * engineNames.length));
  const threads = engineNames.map((name, slot) => new EngineThread(name, flags, slot));
  try {
    for (const t of threads) await t.next(); // 'loaded'
    if (codeWarmup > 0) {
      const started = performance.now();
      for (const t of threads) { t.post({ type: 'warmup', steps: codeWarmup }); await t.next(); }
      progress(`code warm-up: ${codeWarmup} steps of ragdoll11 × 1, motors on and off, per engine (each in its own worker): ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const report = new Report(counts, progress);
    for (const key of keys) {
      const scene = benchSceneOf(file, key);
      const started = performance.now();
      const running: { thread: EngineThread; slot: number; settings: string }[] = [];
      for (const [slot, thread] of threads.entries()) {
        thread.post({ type: 'scene', scene: key, warmup, timed, qualityAtStep: file.bench.qualityAtStep });
        const m = await thread.next();
        if (m.type === 'ready') running.push({ thread, slot, settings: m.settings });
      }
      const total = warmup + timed, E = running.length;
      for (let k = 0; k < total; k++) {
        for (let e = 0; e < E; e++) {
          const { slot, thread } = running[(k + e) % E]!;
          Atomics.store(flags, slot, 1);
          Atomics.notify(flags, slot);
          Atomics.wait(flags, slot, 1);
          if (Atomics.load(flags, slot) === -1) { await thread.next(); throw new Error(`bench: ${thread.name} failed`); } // next() throws its message
        }
      }
      for (const r of running) {
        const m = await r.thread.next();
        if (m.type !== 'measured') throw new Error(`bench: ${r.thread.name} sent ${m.type} instead of its measurement`);
        report.add(scene, r.thread.name, r.settings, m.measured);
      }
      progress(`${scene.name} ×${scene.n} motors ${scene.motors ? 'on' : 'off'}: ${((performance.now() - started) / 1000).toFixed(1)} s for ${E} engines interleaved, each in its own worker`);
    }
    return report.result();
  } finally {
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}
