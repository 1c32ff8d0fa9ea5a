/**
 * window.__marionettePool in the test build: the preview's worker pool (workerPool.ts) seen from the page,
 * read only — how many simulation workers run, the pool's counters, and the recording the client holds
 * against a single engine's run on this thread (the bits must be the same).
 */
import { PreviewEngine } from '../../../shared/preview/engine';
import { previewClient } from './client';
import { usePreview } from './previewStore';
import { poolStats } from './workerPool';
import type { PoolStats } from '../../../shared/preview/pool';

export interface PoolTestHook {
  /** Simulation workers behind the client: 2 with the pool, else 1. */
  workers(): number;
  stats(): PoolStats | null;
  /**
   * FNV-1a digests of the client's recording (flat frames and aux records, frames 0 … count − 1) and of a
   * PreviewEngine run here of the rig the client shows with the timeline's inputs (no animation clips), as
   * many frames; `count` how many.
   */
  compareWithSingleRun(): { count: number; recorded: string; single: string };
}

function fnv(arrays: Float64Array[]): string {
  let h = 0x811c9dc5;
  for (const a of arrays) {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193) >>> 0;
  }
  return h.toString(16);
}

export function installPoolTestHook(): void {
  const hook: PoolTestHook = {
    workers: () => (poolStats() ? 2 : 1),
    stats: poolStats,
    compareWithSingleRun() {
      const c = previewClient(), L = c.layout;
      if (!L || c.count === 0) return { count: 0, recorded: '', single: '' };
      const n = c.count;
      const recorded = fnv([c.frames.subarray(0, n * L.frameSize), c.aux.subarray(0, n * L.aux.size)]);
      const e = new PreviewEngine(L.rig, { capacity: n + 1 });
      e.setInputs(usePreview.getState().inputs);
      e.advance(n - 1);
      const { frames, aux } = e.slice(0, n);
      return { count: n, recorded, single: fnv([frames, aux]) };
    },
  };
  (window as unknown as { __marionettePool: PoolTestHook }).__marionettePool = hook;
}
