/**
 * One preview host against two (shared/preview/pool.ts) in Node worker threads (bench/poolHostWorker.ts:
 * host.ts as the Web Worker runs it), for bench/preview-latency.ts; `npx tsx bench/previewPool.ts` runs it
 * alone on the Armed Mine. The client is emulated as renderer/src/preview/client.ts behaves (a mirror of
 * the recording, every batch acknowledged on receipt); with one host the pool makes the newest edit wait
 * for the answer to the one in flight, as the single-host client does. Per run:
 *   - settled edits (each waits for the full timeline before the next): edit → frame under the playhead,
 *     edit → full timeline; and how many frames of the old recording after the edit's first changed frame
 *     are bit-equal to the new one's (what a second host starting from an old snapshot could reuse);
 *   - drags: a path control point moved every `moveMs` (a pointer move, each an edit), `moves` times; from
 *     the last move to its frame under the playhead and to the full timeline, and the edits shown during
 *     the drag (their frame under the playhead reached the client) with how old each was when shown.
 * One and two hosts alternate within the run (1, 2, 1, 2, …), so both see the same machine load.
 */
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { createPool, type PreviewPool } from '../shared/preview/pool';
import type { FromHost } from '../shared/preview/protocol';
import { loadRig, type RigDocument } from '../shared/rig';

export interface PoolRun {
  hosts: number;
  replace: boolean;
  settled: { kind: string; playheadMs: number; fullS: number; framesAfterChange: number; equalAfterChange: number }[];
  drags: { lastToPlayheadMs: number; lastToFullS: number; moves: number; shown: number; shownAgeMs: number }[];
}

const workerUrl = new URL('./poolHostWorker.ts', import.meta.url).href;
const startWorker = (onMessage: (m: FromHost) => void) => {
  // tsx's loader, registered inside the thread (a worker does not inherit it).
  const w = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerUrl)}); })`, { eval: true });
  w.on('message', onMessage);
  w.on('error', (e) => { throw e; });
  return { post: (m: unknown) => w.postMessage(m), terminate: () => { void w.terminate(); } };
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function session(rig: RigDocument, hosts: number, replace: boolean, frames: number, playhead: number, drags: number, moves: number, moveMs: number): Promise<PoolRun> {
  let count = 0, generation = 0, frameSize = 0, auxSize = 0;
  let mirror = new Float64Array(0), auxMirror = new Float64Array(0);
  const sentAt = new Map<number, number>();
  const shownAt = new Map<number, number>();
  let failure: string | null = null;
  // eslint-disable-next-line prefer-const -- the client acks through the pool, made below
  let pool: PreviewPool;
  const client = (m: FromHost) => {
    switch (m.type) {
      case 'reset':
        count = m.keep !== undefined && m.frameSize === frameSize && m.aux.size === auxSize ? Math.min(count, m.keep) : 0;
        frameSize = m.frameSize; auxSize = m.aux.size; generation = m.generation;
        if (mirror.length < frames * frameSize) { mirror = new Float64Array(frames * frameSize); auxMirror = new Float64Array(frames * auxSize); }
        break;
      case 'truncate': count = Math.min(count, m.keep); break;
      case 'frames':
        pool.post({ type: 'ack' });
        if (m.start > count) break;
        mirror.set(m.frames, m.start * frameSize);
        auxMirror.set(m.aux, m.start * auxSize);
        count = Math.max(count, m.start + m.count);
        if (count > playhead && !shownAt.has(generation)) shownAt.set(generation, performance.now());
        break;
      case 'problem': failure = m.message; break;
      default: break;
    }
  };
  pool = createPool((_i, onMessage) => startWorker(onMessage), client, { hosts, replace, defer: (fn) => setTimeout(fn, 0) });
  const until = async (done: () => boolean, what: string) => {
    const t0 = performance.now();
    while (!done()) {
      if (failure) throw new Error(`preview pool bench: ${failure}`);
      if (performance.now() - t0 > 300_000) throw new Error(`preview pool bench: ${what} took over 5 minutes`);
      await sleep(1);
    }
  };
  let gen = 0, cur = rig;
  const send = (r: RigDocument, p: number) => { cur = r; sentAt.set(++gen, performance.now()); pool.post({ type: 'rig', rig: r, generation: gen, playhead: p }); return gen; };
  const edited = (f: (r: RigDocument) => void) => { const r = structuredClone(cur); f(r); return r; };
  const out: PoolRun = { hosts, replace, settled: [], drags: [] };
  try {
    pool.post({ type: 'horizon', frames });
    send(rig, 0);
    await until(() => generation === gen && count >= frames, 'the first fill');
    // Two hosts: the second warms up on the first recording (pool.ts) — measured after it, as a user edits.
    await until(() => !pool.busy, 'the warm-up');

    const settled: [string, (r: RigDocument) => void][] = [
      ['controller parameter', (r) => { r.controllers[0]!.controlPoints[1]![1] += 0.01; }],
      ['motor gain', (r) => { const j = r.joints.find((x) => 'motor' in x && x.motor.mode !== 'off')!; if ('motor' in j) { j.motor.stiffness *= 1.05; j.motor.errorReduction = Math.min(1, j.motor.errorReduction * 1.05); } }],
      ['body mass', (r) => { const b = r.bodies.find((x) => x.mass !== null) ?? r.bodies[0]!; if (b.mass !== null) b.mass *= 1.02; else if (typeof b.density === 'number') b.density *= 1.02; }],
    ];
    for (const [kind, f] of settled) {
      const before = mirror.slice(0, frames * frameSize), beforeAux = auxMirror.slice(0, frames * auxSize);
      const t = performance.now();
      const g = send(edited(f), playhead);
      await until(() => generation === g && count > playhead, `${kind}: the playhead frame`);
      const playheadMs = performance.now() - t;
      await until(() => generation === g && count >= frames, `${kind}: the full timeline`);
      const fullS = (performance.now() - t) / 1000;
      // From the first frame the edit changed: the old recording's frames still equal to the new one's.
      const same = (k: number) => {
        for (let i = k * frameSize; i < (k + 1) * frameSize; i++) if (!Object.is(before[i], mirror[i])) return false;
        for (let i = k * auxSize; i < (k + 1) * auxSize; i++) if (!Object.is(beforeAux[i], auxMirror[i])) return false;
        return true;
      };
      let first = 0;
      while (first < frames && same(first)) first++;
      let equal = 0;
      for (let k = first; k < frames; k++) if (same(k)) equal++;
      out.settled.push({ kind, playheadMs, fullS, framesAfterChange: frames - first, equalAfterChange: equal });
    }

    for (let d = 0; d < drags; d++) {
      const first = gen + 1;
      let last = 0;
      for (let i = 1; i <= moves; i++) {
        last = send(edited((r) => { r.controllers[0]!.controlPoints[2]![1] += 0.002 * (d % 2 ? -1 : 1); }), playhead);
        await sleep(moveMs);
      }
      const t = sentAt.get(last)!;
      await until(() => generation === last && count > playhead, 'drag: the last edit\'s playhead frame');
      const lastToPlayheadMs = performance.now() - t;
      await until(() => generation === last && count >= frames, 'drag: the full timeline');
      const lastToFullS = (performance.now() - t) / 1000;
      const shownGens = [...shownAt.keys()].filter((g) => g >= first && g <= last);
      const ages = shownGens.map((g) => shownAt.get(g)! - sentAt.get(g)!);
      out.drags.push({ lastToPlayheadMs, lastToFullS, moves, shown: shownGens.length, shownAgeMs: ages.reduce((a, b) => a + b, 0) / Math.max(1, ages.length) });
    }
  } finally {
    pool.terminate();
  }
  return out;
}

const median = (a: number[]) => { const s = [...a].sort((x, y) => x - y); return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };

/** The configurations compared: one host; two, the newest edit waiting when both compute; two, the
 *  newest replacing the newer of the two in flight. */
export const POOL_CONFIGS = [{ name: 'one host', hosts: 1, replace: false }, { name: 'two hosts', hosts: 2, replace: false }, { name: 'two hosts, replacing', hosts: 2, replace: true }] as const;

export interface PoolFigures {
  rounds: number;
  byConfig: {
    name: string;
    settledPlayheadMs: number; settledFullS: number;
    dragLastToPlayheadMs: number; dragLastToFullS: number; dragShownPerDrag: number; dragShownAgeMs: number;
  }[];
  /** Settled edits: frames after the first changed one, and of those bit-equal to the old recording's. */
  reuse: { kind: string; framesAfterChange: number; equalAfterChange: number }[];
}

export async function measurePool(rig: RigDocument, options: { frames: number; playhead: number; rounds?: number; drags?: number; moves?: number; moveMs?: number }): Promise<PoolFigures> {
  const rounds = options.rounds ?? 2;
  const runs: { name: string; run: PoolRun }[] = [];
  for (let k = 0; k < rounds; k++) {
    for (const c of POOL_CONFIGS) runs.push({ name: c.name, run: await session(rig, c.hosts, c.replace, options.frames, options.playhead, options.drags ?? 3, options.moves ?? 20, options.moveMs ?? 16) });
  }
  const byConfig = POOL_CONFIGS.map((c) => {
    const rs = runs.filter((r) => r.name === c.name).map((r) => r.run);
    const settled = rs.flatMap((r) => r.settled), drags = rs.flatMap((r) => r.drags);
    return {
      name: c.name,
      settledPlayheadMs: median(settled.map((e) => e.playheadMs)), settledFullS: median(settled.map((e) => e.fullS)),
      dragLastToPlayheadMs: median(drags.map((e) => e.lastToPlayheadMs)), dragLastToFullS: median(drags.map((e) => e.lastToFullS)),
      dragShownPerDrag: median(drags.map((e) => e.shown)), dragShownAgeMs: median(drags.map((e) => e.shownAgeMs)),
    };
  });
  return { rounds, byConfig, reuse: runs[0]!.run.settled.map(({ kind, framesAfterChange, equalAfterChange }) => ({ kind, framesAfterChange, equalAfterChange })) };
}

export function poolReport(f: PoolFigures, playhead: number): string[] {
  const r = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
  return [
    `one preview host vs two (shared/preview/pool.ts) in worker threads, configurations alternating, ${f.rounds} runs each, medians:`,
    ...f.byConfig.map((c) => `  ${c.name}: settled edit → playhead frame ${playhead} ${r(c.settledPlayheadMs)} ms, → full timeline ${r(c.settledFullS, 2)} s; drag (a path point moved every 16 ms): last move → its playhead frame ${r(c.dragLastToPlayheadMs)} ms, → full timeline ${r(c.dragLastToFullS, 2)} s, edits shown per drag ${r(c.dragShownPerDrag, 1)}, ${r(c.dragShownAgeMs)} ms old when shown`),
    `  frames after an edit's first changed frame that equal the old recording's (what a second host could reuse from an old snapshot): ${f.reuse.map((e) => `${e.kind} ${e.equalAfterChange} of ${e.framesAfterChange}`).join(', ')}`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mine = loadRig(JSON.parse(readFileSync(new URL('../assets/creatures/armed-mine.rig.json', import.meta.url), 'utf8')), { source: 'armed-mine.rig.json' });
  const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 2);
  const f = await measurePool(mine, { frames: 1201, playhead: 300, rounds });
  if (process.argv.includes('--json')) console.log(JSON.stringify(f, null, 2));
  else for (const line of poolReport(f, 300)) console.log(line);
  console.log(`(machine: ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}, shared with other agents)`);
}
