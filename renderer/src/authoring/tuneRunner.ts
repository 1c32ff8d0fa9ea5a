/**
 * Runs Tune…'s computation (shared/authoring tuneRig) in a Web Worker (tuneWorker.ts), started on first
 * use and kept; without workers it runs here. The editor (shared/editor tools.ts) gets it as the
 * platform's tuneRig. `lastTuneMs` is how long the last run took (the dialog shows it).
 */
import { tuneRig, type TuneOptions, type TuneResult } from '../../../shared/authoring/tune';
import type { RigDocument } from '../../../shared/rig';

type Reply = { id: number; result?: TuneResult; error?: string };

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, { resolve: (r: TuneResult) => void; reject: (e: Error) => void }>();
export const tuneStats = { lastTuneMs: 0, worker: false };

function startWorker(): Worker | null {
  if (worker || typeof Worker === 'undefined') return worker;
  try {
    worker = new Worker(new URL('./tuneWorker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<Reply>) => {
      const w = waiting.get(e.data.id);
      if (!w) return;
      waiting.delete(e.data.id);
      if (e.data.error !== undefined) w.reject(new Error(e.data.error)); else w.resolve(e.data.result!);
    };
    worker.onerror = (e) => {
      for (const w of waiting.values()) w.reject(new Error(`the tune worker failed: ${e.message}`));
      waiting.clear();
      worker?.terminate();
      worker = null;
    };
  } catch {
    worker = null;
  }
  return worker;
}

export async function runTune(rig: RigDocument, options: TuneOptions): Promise<TuneResult> {
  const t0 = performance.now();
  const w = startWorker();
  tuneStats.worker = w !== null;
  let result: TuneResult;
  if (!w) {
    result = tuneRig(rig, options);
  } else {
    const id = ++nextId;
    result = await new Promise<TuneResult>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      w.postMessage({ id, rig, options });
    });
  }
  tuneStats.lastTuneMs = performance.now() - t0;
  return result;
}
