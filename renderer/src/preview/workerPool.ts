/**
 * The preview's two simulation workers (issue 17 item 2): shared/preview/pool.ts behind the client's port,
 * each host in its own Web Worker (simWorker.ts). The client (client.ts) then sends every rig edit at once
 * — the pool decides which worker computes it — instead of holding the newest until the one in flight is
 * answered.
 *
 * How many workers: the choice saved under PREVIEW_WORKERS_KEY in localStorage ('1' or '2': the tests set
 * it), else VITE_PREVIEW_WORKERS ('1' or '2') if the build sets it, else two where the machine has four
 * logical cores or more. Measured on a 2-core
 * machine (bench/previewPool.ts, docs/architecture.md), a second worker shortened nothing: the viewport's
 * thread and one worker already take both cores, and the second only divides them. The newest edit of a
 * drag replaces the newer of two in flight (pool.ts `replace`): with a core free it starts at once, so the
 * last move is shown one re-simulation after it, not after the one in flight too.
 */
import { createPool, type PoolStats, type PreviewPool } from '../../../shared/preview/pool';
import type { FromHost, ToHost } from '../../../shared/preview/protocol';

export const PREVIEW_WORKERS_KEY = 'marionette.previewWorkers';

export function previewWorkerCount(): number {
  try {
    const saved = globalThis.localStorage?.getItem(PREVIEW_WORKERS_KEY);
    if (saved === '1' || saved === '2') return Number(saved);
  } catch { /* storage unavailable: the default */ }
  // A build may set the default (VITE_PREVIEW_WORKERS=1|2 at build time: the end-to-end suite either way).
  const built = import.meta.env.VITE_PREVIEW_WORKERS;
  if (built === '1' || built === '2') return Number(built);
  return (globalThis.navigator?.hardwareConcurrency ?? 1) >= 4 ? 2 : 1;
}

let active: PreviewPool | null = null;

/** The running pool's counters (the test hook), or null with one worker. */
export const poolStats = (): PoolStats | null => (active ? { ...active.stats } : null);

export function startWorkerPool(onMessage: (m: FromHost) => void, onError: (message: string) => void, workers: number): { post(m: ToHost): void; terminate(): void } {
  const pool = createPool((i, deliver) => {
    const w = new Worker(new URL('./simWorker.ts', import.meta.url), { type: 'module', name: `preview simulation ${i + 1}` });
    w.onmessage = (e: MessageEvent<FromHost>) => deliver(e.data);
    w.onerror = (e) => onError(e.message);
    return { post: (m) => w.postMessage(m), terminate: () => w.terminate() };
  }, onMessage, { hosts: workers, replace: true, defer: (fn) => setTimeout(fn, 0) });
  active = pool;
  return { post: (m) => pool.post(m), terminate: () => { pool.terminate(); if (active === pool) active = null; } };
}
