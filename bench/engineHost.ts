/**
 * One benchmark engine in its own worker thread — its own V8 isolate and heap — for runBenchmark's
 * `isolation: 'worker'` (the protocol of `npm run bench` since 2026-11-28). The main thread still steps the
 * engines of a scene in turn, one step each: it raises this engine's flag in a shared Int32Array, this thread
 * steps its world once (timed here, around world.step() alone) and lowers the flag. Setting up a scene and
 * returning its measurement are messages.
 *
 * Why: measured 2026-11-28, an idle MuJoCo ragdoll11 × 128 model made in the same isolate (never stepped)
 * slowed Marionette's step by 15–100 %, and not when the model was made in another worker (docs/physics.md
 * "Speed": "One isolate per engine"). A game loads one physics engine, not four.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { EngineName } from './engine';
import { loadEngine } from './engines';
import { benchSceneOf, loadRagdollFile, warmEngineCode, WorldMeasurer } from './runBenchmark';
import type { HostRequest, HostReply } from './engineHostProtocol';

const port = parentPort;
if (!port) throw new Error('bench/engineHost.ts runs as a worker thread (runBenchmark with isolation "worker" starts it)');
const { engine: name, flags, slot } = workerData as { engine: EngineName; flags: Int32Array; slot: number };
const engine = await loadEngine(name);
const file = loadRagdollFile();
const reply = (m: HostReply) => port.postMessage(m);

port.on('message', (m: HostRequest) => {
  try {
    if (m.type === 'warmup') {
      warmEngineCode(engine, file, m.steps);
      reply({ type: 'done' });
      return;
    }
    // type 'scene': make the world, say so, then step it each time the main thread raises the flag.
    const scene = benchSceneOf(file, m.scene);
    if (!(engine.supports?.(scene) ?? true)) { reply({ type: 'unsupported' }); return; }
    const world = engine.create(scene);
    try {
      const measurer = new WorldMeasurer(world, scene, m.warmup, m.timed, m.qualityAtStep);
      reply({ type: 'ready', settings: world.settings });
      for (let k = 0; k < measurer.total; k++) {
        Atomics.wait(flags, slot, 0);
        measurer.step();
        Atomics.store(flags, slot, 0);
        Atomics.notify(flags, slot);
      }
      reply({ type: 'measured', measured: measurer.result() });
    } finally {
      world.dispose();
    }
  } catch (e) {
    Atomics.store(flags, slot, -1); // a main thread waiting for this step stops waiting
    Atomics.notify(flags, slot);
    reply({ type: 'error', message: `${name}: ${(e as Error).message}` });
  }
});
reply({ type: 'loaded' });
