/**
 * The preview host (shared/preview/host.ts — the code the Web Worker runs) measured in Node, for
 * bench/preview-latency.ts: a rig's first fill of the timeline, then edits of several kinds, each timed
 * from the message that carries it (a rig, or new inputs) to the batch holding the frame under the
 * playhead, and to the full timeline. The client is emulated: every batch is acknowledged as the next
 * task, as the browser client does on receipt; slices are queued tasks run back to back (no 4 ms timer
 * clamp, as with the worker's MessageChannel).
 */
import { performance } from 'node:perf_hooks';
import { createHost } from '../shared/preview/host';
import type { PreviewInput } from '../shared/preview/input';
import type { FromHost } from '../shared/preview/protocol';
import type { RigDocument } from '../shared/rig';

export interface HostEdit { kind: string; rig?: RigDocument; inputs?: PreviewInput[] }

export interface HostFigures {
  bodies: number;
  /** Median frames per second of the host's slices × dt (wall clock: on a loaded machine it falls with the load). */
  realTimeFactor: number;
  /** Simulated seconds per second of this process's CPU time over the whole measurement (first fill and
   *  every edit's re-simulated frames, engine set-up and messages included): what one free core would do,
   *  nearly independent of the other processes on the machine. */
  cpuRealTimeFactor: number;
  /** First fill of the timeline: rig message → last frame posted (s). */
  firstFillS: number;
  playheadFrame: number;
  edits: { kind: string; playheadMs: number; fullS: number; keptFrames: number }[];
}

const quantile = (a: number[], p: number): number => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN; };
export const summary = (a: number[]): { median: number; p95: number; n: number } => ({ median: quantile(a, 0.5), p95: quantile(a, 0.95), n: a.length });

export function measureHost(rig: RigDocument, edits: HostEdit[], options: { frames: number; playhead: number }): HostFigures {
  const queue: (() => void)[] = [];
  let count = 0, kept = 0;
  const speeds: number[] = [];
  const host = createHost((m: FromHost) => {
    switch (m.type) {
      case 'reset': count = m.keep ?? 0; kept = count; break;
      case 'truncate': count = Math.min(count, m.keep); kept = count; break;
      case 'frames':
        if (m.start <= count) count = Math.max(count, m.start + m.count);
        if (m.stepsPerSecond > 0) speeds.push(m.stepsPerSecond);
        queue.push(() => host.receive({ type: 'ack' }));
        break;
      case 'problem': throw new Error(`preview host: ${m.message}`);
      default: break;
    }
  }, (fn) => queue.push(fn), { now: () => performance.now(), wall: () => performance.timeOrigin + performance.now() });
  const runUntil = (done: () => boolean, what: string) => {
    const t0 = performance.now();
    while (!done()) {
      const fn = queue.shift();
      if (!fn) throw new Error(`preview host bench: ran out of work before ${what} (${count} frames)`);
      fn();
      if (performance.now() - t0 > 600_000) throw new Error(`preview host bench: ${what} took over 10 minutes`);
    }
  };

  const cpu0 = process.cpuUsage();
  let simulated = options.frames - 1;
  host.receive({ type: 'horizon', frames: options.frames });
  let t = performance.now();
  host.receive({ type: 'rig', rig, generation: 1 });
  runUntil(() => count >= options.frames, 'the first fill');
  const firstFillS = (performance.now() - t) / 1000;
  const realTimeFactor = quantile(speeds, 0.5) * rig.simulation.dt;
  const settle = () => { for (let fn = queue.shift(); fn; fn = queue.shift()) fn(); };
  settle();

  const P = options.playhead;
  const out: HostFigures['edits'] = [];
  let generation = 1;
  for (const e of edits) {
    kept = count;
    t = performance.now();
    if (e.rig) host.receive({ type: 'rig', rig: e.rig, generation: ++generation, playhead: P });
    else host.receive({ type: 'inputs', inputs: e.inputs ?? [], playhead: P });
    const keptFrames = kept;
    runUntil(() => count > P, `${e.kind}: the playhead frame`);
    const playheadMs = performance.now() - t;
    runUntil(() => count >= options.frames, `${e.kind}: the full timeline`);
    out.push({ kind: e.kind, playheadMs, fullS: (performance.now() - t) / 1000, keptFrames });
    simulated += options.frames - Math.max(1, keptFrames);
    settle();
  }
  const cpu = process.cpuUsage(cpu0), cpuS = (cpu.user + cpu.system) / 1e6;
  const cpuRealTimeFactor = (simulated * rig.simulation.dt) / cpuS;
  return { bodies: rig.bodies.length, realTimeFactor, cpuRealTimeFactor, firstFillS, playheadFrame: P, edits: out };
}
