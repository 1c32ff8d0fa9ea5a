/**
 * Two preview hosts behind one client (shared/preview/pool.ts, issue 17 item 2). The hosts run here in one
 * thread, each with its own task queue (messages between them and the pool are tasks, as between a worker
 * and the main thread), the tasks taken round robin; a minimal client mirrors the recording by the rules
 * of renderer/src/preview/client.ts. For every kind of edit, and for a burst of edits that overlap (one
 * sent while another is computing, one replacing a newer unanswered one), the recording the client ends up
 * with is bit for bit (digest of flat frames and aux records) the recording of a single PreviewEngine run
 * of the final rig and inputs, and of the same session through one host.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRig, type RigDocument } from '../../../shared/rig';
import { createHost } from '../../../shared/preview/host';
import { createPool, type PreviewPool } from '../../../shared/preview/pool';
import { PreviewEngine, type PreviewInput } from '../../../shared/preview/engine';
import type { FromHost, ToHost } from '../../../shared/preview/protocol';

const mine = loadRig(JSON.parse(readFileSync(new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url), 'utf8')), { source: 'armed-mine.rig.json' });
const H = 181;
const PLAYHEAD = 120;

/** FNV-1a over the bytes of frames and aux records: equal digests = equal bits. */
function digest(frames: Float64Array, aux: Float64Array): string {
  let h = 0x811c9dc5;
  for (const a of [frames, aux]) {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193) >>> 0;
  }
  return h.toString(16);
}

const references = new Map<string, string>();
/** A single engine's run of (rig, inputs): H frames. */
function reference(rig: RigDocument, inputs: PreviewInput[]): string {
  const key = JSON.stringify([rig, inputs]);
  const known = references.get(key);
  if (known) return known;
  const e = new PreviewEngine(rig);
  e.setInputs(inputs);
  e.advance(H - 1);
  const { frames, aux } = e.slice(0, H);
  const d = digest(frames, aux);
  references.set(key, d);
  return d;
}

/** The hosts' clock: each reading advances it by TICK_MS, so a slice does the same work on every machine
 *  (4 ms: three readings per slice of 12. With the wall clock a fast machine finished each edit in fewer tasks and
 *  two edits did not overlap: CI once saw none wait). */
const TICK_MS = 4;
function tickClock() { let t = 0; const now = () => (t += TICK_MS); return { now, wall: now }; }

/** The pool over `hosts` in-thread hosts, a client mirror, and a round-robin task loop. */
function session(hosts: number, replace = false) {
  const queues: (() => void)[][] = [[]];
  const main = queues[0]!;
  let frameSize = 0, auxSize = 0, count = 0, generation = 0;
  let frames = new Float64Array(0), aux = new Float64Array(0);
  const resets: { generation: number; keep: number | undefined }[] = [];
  let problem: string | null = null;
  // eslint-disable-next-line prefer-const -- the client acks through the pool, made below
  let pool: PreviewPool;
  const client = (m: FromHost) => {
    switch (m.type) {
      case 'reset':
        count = m.keep !== undefined && frameSize === m.frameSize && auxSize === m.aux.size ? Math.min(count, m.keep) : 0;
        frameSize = m.frameSize; auxSize = m.aux.size; generation = m.generation; problem = null;
        resets.push({ generation: m.generation, keep: m.keep });
        break;
      case 'truncate': count = Math.min(count, m.keep); break;
      case 'frames': {
        main.push(() => pool.post({ type: 'ack' }));
        if (m.start > count) break;
        const end = m.start + m.count;
        if (end * frameSize > frames.length) {
          const f = new Float64Array(end * frameSize * 2); f.set(frames); frames = f;
          const a = new Float64Array(end * auxSize * 2); a.set(aux); aux = a;
        }
        frames.set(m.frames, m.start * frameSize);
        aux.set(m.aux, m.start * auxSize);
        count = Math.max(count, end);
        break;
      }
      case 'problem': problem = m.message; if (m.frame === null) count = 0; break;
      default: break;
    }
  };
  pool = createPool((i, onMessage) => {
    const q: (() => void)[] = [];
    queues.push(q);
    const host = createHost((m) => main.push(() => onMessage(m)), (fn) => q.push(fn), tickClock());
    return { post: (msg: ToHost) => q.push(() => host.receive(structuredClone(msg))), terminate: () => undefined };
  }, client, { hosts, replace, defer: (fn) => main.push(fn) });
  /** Run up to n tasks round robin (n = Infinity: until no work is left). */
  const run = (n = Infinity) => {
    for (let k = 0; k < n;) {
      let any = false;
      for (const q of queues) { const fn = q.shift(); if (fn) { fn(); any = true; k++; } }
      if (!any) return;
    }
  };
  return {
    pool, run, resets,
    post: (m: ToHost) => pool.post(m),
    get count() { return count; },
    get generation() { return generation; },
    get problem() { return problem; },
    digest: () => digest(frames.subarray(0, count * frameSize), aux.subarray(0, count * auxSize)),
    digestOf: (n: number) => digest(frames.subarray(0, n * frameSize), aux.subarray(0, n * auxSize)),
  };
}

const edit = (base: RigDocument, f: (r: RigDocument) => void): RigDocument => { const r = structuredClone(base); f(r); return r; };
const pathPoint = (dy: number) => (r: RigDocument) => { r.controllers[0]!.controlPoints[2]![1] += dy; };
const gain = (k: number) => (r: RigDocument) => { const j = r.joints.find((x) => x.name === 'shoulder')!; if ('motor' in j) j.motor.errorReduction = Math.min(1, j.motor.errorReduction * k); };
const mass = (k: number) => (r: RigDocument) => { const b = r.bodies.find((x) => x.name === 'hand')!; if (b.mass == null) throw new Error('the hand has no mass'); b.mass *= k; };

describe('preview pool: two hosts, one recording', () => {
  it('settled edits of every kind (controller parameter, motor gain, target key, poke, body mass) give a single run\'s bits', () => {
    const s = session(2);
    let rig = mine, gen = 0;
    let inputs: PreviewInput[] = [];
    s.post({ type: 'horizon', frames: H });
    s.post({ type: 'rig', rig, generation: ++gen, playhead: 0 });
    s.run();
    expect(s.count).toBe(H);
    expect(s.digest()).toBe(reference(rig, inputs));
    const steps: [string, () => void][] = [
      ['controller parameter', () => { rig = edit(rig, pathPoint(0.03)); s.post({ type: 'rig', rig, generation: ++gen, playhead: PLAYHEAD }); }],
      ['motor gain', () => { rig = edit(rig, gain(0.8)); s.post({ type: 'rig', rig, generation: ++gen, playhead: PLAYHEAD }); }],
      ['target key', () => { inputs = [{ kind: 'target', frame: 60, target: [2, 0, 3] }]; s.post({ type: 'inputs', inputs, playhead: PLAYHEAD }); }],
      ['poke', () => { inputs = [...inputs, { kind: 'blast', frame: 90, center: [0, 0, 0], radius: 3, strength: 4 }]; s.post({ type: 'inputs', inputs, playhead: PLAYHEAD }); }],
      ['body mass', () => { rig = edit(rig, mass(1.5)); s.post({ type: 'rig', rig, generation: ++gen, playhead: PLAYHEAD }); }],
    ];
    // The target key is not on a snapshot frame (30, 60, …): a key there leaves that frame's aux record (the
    // steering target) as the old run recorded it after a re-simulation — with one host too (engine.ts).
    for (const [kind, step] of steps) {
      const before = s.digest();
      step();
      s.run();
      expect(s.count, kind).toBe(H);
      expect(s.generation, kind).toBe(gen);
      expect(s.digest(), kind).toBe(reference(rig, inputs));
      expect(s.digest(), `${kind} changed the recording`).not.toBe(before);
    }
    expect(s.problem).toBeNull();
    // Settled edits never overlap: each went to the host whose recording was shown.
    expect(s.pool.stats).toMatchObject({ overlapped: 0, replaced: 0, shown: 4 });
  });

  it('a burst of overlapping edits (a drag) ends on the bits of a single run and of one host; every edit shown is a whole recording', () => {
    const burst = (hosts: number, replace = false) => {
      const s = session(hosts, replace);
      let rig = mine, gen = 0;
      const rigs = new Map<number, RigDocument>([[1, rig]]);
      s.post({ type: 'horizon', frames: H });
      s.post({ type: 'rig', rig, generation: ++gen, playhead: 0 });
      s.run();
      const inputs: PreviewInput[] = [{ kind: 'target', frame: 40, target: [1, 0, 2] }];
      s.post({ type: 'inputs', inputs, playhead: PLAYHEAD });
      s.run();
      // Ten edits, a few tasks apart: one is sent while others are computing.
      const kinds = [pathPoint(0.01), gain(0.9), pathPoint(-0.02), mass(1.1), pathPoint(0.015), gain(1.05), pathPoint(0.005), mass(0.95), pathPoint(-0.01), gain(0.97)];
      const checked: string[] = [];
      let lastGen = 0;
      for (const k of kinds) {
        rig = edit(rig, k);
        rigs.set(++gen, rig);
        s.post({ type: 'rig', rig, generation: gen, playhead: PLAYHEAD });
        s.run(12);
        // A newly shown edit: the client holds its frames 0 … count − 1, those of a single run.
        if (s.generation !== lastGen && s.count > PLAYHEAD) {
          lastGen = s.generation;
          const e = new PreviewEngine(rigs.get(s.generation)!);
          e.setInputs(inputs);
          e.advance(s.count - 1);
          const { frames, aux } = e.slice(0, s.count);
          expect(s.digestOf(s.count), `edit ${s.generation} as shown`).toBe(digest(frames, aux));
          checked.push(`${s.generation}`);
        }
      }
      s.run();
      expect(s.count).toBe(H);
      expect(s.generation).toBe(gen);
      return { digest: s.digest(), stats: { ...s.pool.stats }, expected: reference(rig, inputs), checked };
    };
    const two = burst(2), replacing = burst(2, true), one = burst(1);
    expect(two.digest).toBe(two.expected);
    expect(replacing.digest).toBe(two.expected);
    expect(one.digest).toBe(two.expected);
    // The two hosts did overlap: edits were sent while another was computing (and, replacing, replaced a
    // newer unanswered one instead of waiting).
    expect(two.stats.overlapped).toBeGreaterThan(0);
    expect(two.stats.waited).toBeGreaterThan(0);
    expect(replacing.stats.overlapped).toBeGreaterThan(0);
    expect(replacing.stats.replaced).toBeGreaterThan(0);
    expect(replacing.stats.waited).toBe(0);
    expect(one.stats.overlapped).toBe(0);
    expect(one.stats.waited).toBeGreaterThan(0);
    for (const r of [two, replacing, one]) expect(r.checked.length).toBeGreaterThan(1);
  }, 240_000);

  it('the particle solver and back (another frame layout each way): the recording of one host each time', () => {
    const steps: Extract<ToHost, { type: 'rig' }>[] = [
      { type: 'rig', rig: mine, generation: 1, playhead: 0 },
      { type: 'rig', rig: mine, generation: 2, playhead: 40, particles: { scene: null, name: 'armed-mine' } },
      { type: 'rig', rig: edit(mine, pathPoint(0.02)), generation: 3, playhead: 40 },
    ];
    const digests = [2, 1].map((hosts) => {
      const s = session(hosts);
      s.post({ type: 'horizon', frames: 91 });
      return steps.map((m) => {
        s.post(m);
        s.run();
        expect(s.problem).toBeNull();
        expect(s.count).toBe(91);
        expect(s.generation).toBe(m.generation);
        return s.digest();
      });
    });
    expect(digests[0]).toEqual(digests[1]);
    expect(new Set(digests[0]).size).toBe(3);
  });

  it('an invalid rig is answered with its problem, and the next valid edit simulates again', () => {
    const s = session(2);
    s.post({ type: 'horizon', frames: 61 });
    s.post({ type: 'rig', rig: mine, generation: 1, playhead: 0 });
    s.run();
    const bad = edit(mine, (r) => { r.bodies[0]!.name = r.bodies[1]!.name; });
    s.post({ type: 'rig', rig: bad, generation: 2, playhead: 30 });
    s.post({ type: 'rig', rig: mine, generation: 3, playhead: 30 });
    s.run();
    expect(s.problem).toBeNull();
    expect(s.generation).toBe(3);
    expect(s.count).toBe(61);
  });
});
