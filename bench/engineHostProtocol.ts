/** Messages between runBenchmark and an engine's worker thread (engineHost.ts). */
import type { Measured } from './runBenchmark';

/** A scene by name: the worker builds it from bench/scenes/ragdoll11.json itself. */
export interface SceneKey { name: 'ragdoll11' | 'pile500'; n: number; motors: boolean }

export type HostRequest =
  | { type: 'warmup'; steps: number }
  | { type: 'scene'; scene: SceneKey; warmup: number; timed: number; qualityAtStep: number };

export type HostReply =
  | { type: 'loaded' }
  | { type: 'done' }
  | { type: 'ready'; settings: string }
  | { type: 'unsupported' }
  | { type: 'measured'; measured: Measured }
  | { type: 'error'; message: string };
