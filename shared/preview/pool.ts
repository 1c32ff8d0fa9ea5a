/**
 * Two simulation hosts behind one client (issue 17 item 2: use both cores). No DOM: the adapter that runs
 * it (renderer/src/preview/workerPool.ts: two Web Workers; a unit test: two hosts in one thread; the
 * benchmark: two worker_threads) hands it a way to start a host and to deliver messages to the client.
 * The client speaks the host protocol (protocol.ts) to the pool as if it were one host.
 *
 * What overlaps. A recording is a deterministic sequence — frame k + 1 is computed from frame k — so the
 * frames of one edit cannot be split between two workers: a second worker starting from a snapshot of the
 * old run at a later frame computes frames the edit has already changed (bench/preview-latency.ts counts
 * the old run's frames that equal the new run's after the edit's first changed frame: none), and a
 * snapshot of the new run exists only once the first worker has computed up to it. What does overlap is
 * the edits of a drag: every pointer move is a new rig, and with one host the newest waits until the one in
 * flight has shown its frame under the playhead (client.ts coalesces). Here each edit goes to a host at
 * once:
 *   - no edit in flight: to the host whose recording the client shows (its previous run is the one the
 *     edit resumes from, editFrontier.ts);
 *   - one in flight: to the other host, while the first finishes (its frame under the playhead is shown
 *     when it is ready, a fresher one than a single host could show);
 *   - two in flight: it waits for the first answer (the newest waiting edit replaces an older waiting
 *     one), or with `replace` it replaces the newer of the two in flight (the older is nearest its answer
 *     and is left alone, so some edit always gets shown during a drag).
 * A host's messages for an edit are held here until it answers — its frame under the playhead exists, or
 * it failed — and then the client gets one 'reset' and one 'frames' batch that switch its mirror to the
 * new recording (frames bit-equal to what the client holds are kept: `keep`); from then on that host's
 * messages go straight through and the other host, if it holds an older edit, stops (horizon 0, its
 * engine kept for the next edit to resume from). Inputs and clips go to both hosts. Once the first recording
 * is complete, the idle host fills it too, once, unseen: its JavaScript is then compiled (a cold host ran
 * an edit several times slower than the warm one). Every recording the
 * client gets is a host's, so it is the bits a single host computes for that (rig, inputs, clips)
 * (tests/unit/preview/pool.test.ts).
 *
 * With `hosts: 1` the pool is the single-host client's behaviour (the newest edit waits for the answer to
 * the one in flight): the benchmark's reference. What the two hosts buy, measured (bench/previewPool.ts),
 * is in docs/architecture.md ("Two workers").
 */
import { editFrontier } from './editFrontier';
import type { PreviewInput } from './input';
import type { FromHost, ToHost } from './protocol';

export interface PoolPort { post(msg: ToHost): void; terminate(): void }

type Reset = Extract<FromHost, { type: 'reset' }>;
type Problem = Extract<FromHost, { type: 'problem' }>;
type Frames = Extract<FromHost, { type: 'frames' }>;
type Rig = Extract<ToHost, { type: 'rig' }>;

/** A copy of a recording as a client of one host's messages would hold it (the rules of client.ts). */
class Mirror {
  reset: Reset | null = null;
  frames = new Float64Array(0);
  aux = new Float64Array(0);
  count = 0;
  failure: Problem | null = null;
  last: Frames | null = null;

  apply(m: FromHost): void {
    switch (m.type) {
      case 'reset': {
        const prev = this.reset;
        this.count = m.keep !== undefined && prev && prev.frameSize === m.frameSize && prev.aux.size === m.aux.size ? Math.min(this.count, m.keep) : 0;
        this.reset = m;
        this.failure = null;
        break;
      }
      case 'truncate': this.count = Math.min(this.count, m.keep); this.failure = null; break;
      case 'frames': {
        const r = this.reset;
        if (!r || m.start > this.count) break;
        const end = m.start + m.count;
        // Both arrays: a reset to another layout (the particle solver's) keeps the old arrays.
        if (end * r.frameSize > this.frames.length || end * r.aux.size > this.aux.length) {
          const cap = Math.max(end, 2 * this.count);
          const f = new Float64Array(cap * r.frameSize); f.set(this.frames.subarray(0, this.count * r.frameSize)); this.frames = f;
          const a = new Float64Array(cap * r.aux.size); a.set(this.aux.subarray(0, this.count * r.aux.size)); this.aux = a;
        }
        this.frames.set(m.frames, m.start * r.frameSize);
        this.aux.set(m.aux, m.start * r.aux.size);
        this.count = Math.max(this.count, end);
        this.last = m;
        break;
      }
      case 'problem':
        if (m.frame === null) { this.reset = null; this.count = 0; }
        this.failure = m;
        break;
      case 'pong': break;
    }
  }

  /** Frames [from, count) as one batch (copies). */
  batch(from: number): Frames | null {
    const r = this.reset;
    if (!r || from >= this.count) return null;
    const last = this.last;
    return {
      type: 'frames', start: from, count: this.count - from,
      frames: this.frames.slice(from * r.frameSize, this.count * r.frameSize), aux: this.aux.slice(from * r.aux.size, this.count * r.aux.size),
      computedAt: last?.computedAt ?? 0, postedAt: last?.postedAt ?? 0, stepsPerSecond: last?.stepsPerSecond ?? 0,
    };
  }
}

/** Leading frames (flat frame and aux record) of two mirrors that are equal bit for bit (NaN included). */
function commonPrefix(a: Mirror, b: Mirror): number {
  const ra = a.reset, rb = b.reset;
  if (!ra || !rb || ra.frameSize !== rb.frameSize || ra.aux.size !== rb.aux.size) return 0;
  const n = Math.min(a.count, b.count), fs = ra.frameSize * 2, as = ra.aux.size * 2;
  const fa = new Uint32Array(a.frames.buffer, a.frames.byteOffset, n * fs), fb = new Uint32Array(b.frames.buffer, b.frames.byteOffset, n * fs);
  const xa = new Uint32Array(a.aux.buffer, a.aux.byteOffset, n * as), xb = new Uint32Array(b.aux.buffer, b.aux.byteOffset, n * as);
  for (let k = 0; k < n; k++) {
    for (let i = k * fs; i < (k + 1) * fs; i++) if (fa[i] !== fb[i]) return k;
    for (let i = k * as; i < (k + 1) * as; i++) if (xa[i] !== xb[i]) return k;
  }
  return n;
}

interface Slot {
  port: PoolPort;
  /** Generations of the rigs sent and not yet answered by their reset (or problem), in order. */
  rigs: number[];
  /** The generation the host's messages now belong to (its last reset), 0 before any. */
  gen: number;
  /** The newest rig sent, and the frame its answer must hold. */
  latest: number;
  target: number;
  /** pending: computing `latest`, not answered; live: its messages go to the client; parked: stopped;
   *  warming: filling the shown recording once, unseen, so its first real edit does not run cold code. */
  state: 'pending' | 'live' | 'parked' | 'warming';
  warmed: boolean;
  /** Everything the host has posted, applied as a client would (what its `sent` and `keep` refer to). */
  rec: Mirror;
  /** The newest rig message sent. */
  msg: Rig | null;
}

export interface PoolStats {
  /** Edits sent to a host while another one was computing an edit (the overlap). */
  overlapped: number;
  /** Edits that replaced an unanswered newer edit on a host (two were in flight). */
  replaced: number;
  /** Edits shown (a host's answer switched the client's recording). */
  shown: number;
  /** Edits that waited for a free host (hosts: 1). */
  waited: number;
}

export interface PreviewPool {
  post(msg: ToHost): void;
  terminate(): void;
  readonly stats: PoolStats;
  /** A host is computing an edit not yet shown, or warming up. */
  readonly busy: boolean;
}

export interface PoolOptions {
  /** 1 or 2 (default 2). */
  hosts?: number;
  /** Two edits in flight: the newest replaces the newer (true) or waits for the first answer (false, the default). */
  replace?: boolean;
  /** Run fn as a later task (a browser: setTimeout 0): a switch to another frame layout delivers its
   *  frames a task after its reset, as a host does — views that re-render on a reset (the recording empty)
   *  see it. */
  defer: (fn: () => void) => void;
}

/**
 * start(i, onMessage): start host i (i = 0 … hosts − 1) whose messages go to onMessage; deliver: a message
 * for the client, in the order the client must see them.
 */
export function createPool(start: (index: number, onMessage: (m: FromHost) => void) => PoolPort, deliver: (m: FromHost) => void, options: PoolOptions): PreviewPool {
  const { hosts = 2, replace = false, defer } = options;
  const stats: PoolStats = { overlapped: 0, replaced: 0, shown: 0, waited: 0 };
  /** What the client holds (every message delivered to it, applied). */
  const shown = new Mirror();
  let shownGen = 0;
  let horizon = 0;
  let inputs: readonly PreviewInput[] = [];
  /** Per 'frames' message delivered, the host its ack goes to (null: acknowledged here already). */
  const acks: (number | null)[] = [];
  /** hosts: 1 — the newest edit waiting for the one in flight. */
  let queued: Rig | null = null;

  const slots: Slot[] = [];
  for (let i = 0; i < Math.max(1, Math.min(2, hosts)); i++) {
    const slot: Slot = { port: null as unknown as PoolPort, rigs: [], gen: 0, latest: 0, target: 0, state: 'parked', warmed: false, rec: new Mirror(), msg: null };
    slots.push(slot);
    slot.port = start(i, (m) => receive(i, m));
  }

  /** Messages for the client held until a deferred task (see PoolOptions.defer), in order; null: none. */
  let outbox: FromHost[] | null = null;
  const toClient = (m: FromHost, ackTo: number | null) => {
    shown.apply(m);
    if (m.type === 'frames') acks.push(ackTo);
    if (outbox) outbox.push(m); else deliver(m);
  };

  function receive(i: number, m: FromHost): void {
    const s = slots[i]!;
    if (m.type === 'pong') { deliver(m); return; }
    if (m.type === 'reset' || (m.type === 'problem' && m.frame === null)) s.gen = s.rigs.shift() ?? s.gen;
    s.rec.apply(m);
    if (s.state === 'live' && s.gen === shownGen) {
      toClient(m, i);
      if (s.rec.count >= horizon) warm();
      return;
    }
    // Held (an edit being computed) or dropped (a superseded one): acknowledged here so the host goes on.
    if (m.type === 'frames') s.port.post({ type: 'ack' });
    if (s.state === 'warming' && (s.rec.count >= horizon || s.rec.failure)) park(s);
    if (s.state !== 'pending' || s.gen !== s.latest) return;
    const answered = m.type === 'problem' || (m.type === 'reset' ? (m.keep ?? 0) > s.target : m.type === 'frames' && s.rec.count > s.target);
    if (answered) show(i);
  }

  /** Host i has answered its newest edit: switch the client to its recording. */
  function show(i: number): void {
    const s = slots[i]!;
    if (s.gen > shownGen) switchTo(s); else park(s);
    if (queued) { const q = queued; queued = null; sendRig(q); }
  }

  function switchTo(s: Slot): void {
    const r = s.rec.reset;
    if (!r) {
      toClient(s.rec.failure ?? { type: 'problem', message: 'the simulation host answered without a recording', frame: null }, null);
    } else {
      // Frames the client holds that are the new recording's too (bit for bit) stay; with the same bodies
      // (editFrontier ≥ 0) the client also keeps its posed rig.
      const old = shown.reset;
      const sameBodies = !!old && !old.particles && !r.particles && editFrontier(old.rig, r.rig, inputs) >= 0;
      const keep = sameBodies ? commonPrefix(shown, s.rec) : 0;
      toClient(sameBodies ? { ...r, keep } : omitKeep(r), null);
      if (!sameBodies && !outbox) {
        const held: FromHost[] = [];
        outbox = held;
        defer(() => { if (outbox === held) outbox = null; for (const m of held) deliver(m); });
      }
      const b = s.rec.batch(keep);
      if (b) toClient(b, null);
      if (s.rec.failure) toClient(s.rec.failure, null);
    }
    shownGen = s.gen;
    s.state = 'live';
    stats.shown++;
    for (const o of slots) if (o !== s && (o.state === 'live' || (o.state === 'pending' && o.latest < shownGen))) park(o);
    if (s.rec.count >= horizon) warm();
  }

  /**
   * The shown recording is complete: a host that has never simulated fills it too, once, unseen. A
   * JavaScript engine compiles the solver's hot code per thread; without this the second host's first edits
   * in a drag run several times slower than the first host's (measured: bench/previewPool.ts).
   */
  function warm(): void {
    const shownRig = slots.find((o) => o.state === 'live')?.msg;
    if (!shownRig) return;
    for (const o of slots) {
      if (o.warmed || o.state !== 'parked') continue;
      o.warmed = true;
      o.port.post({ type: 'horizon', frames: horizon });
      o.state = 'warming';
      o.latest = shownRig.generation;
      o.rigs.push(shownRig.generation);
      o.msg = shownRig;
      o.port.post({ ...shownRig, playhead: undefined });
    }
  }

  function park(s: Slot): void {
    if (s.state === 'parked') return;
    s.state = 'parked';
    s.port.post({ type: 'horizon', frames: 0 });
  }

  function dispatch(s: Slot, msg: Rig): void {
    if (s.state === 'parked') s.port.post({ type: 'horizon', frames: horizon });
    s.state = 'pending';
    s.warmed = true;
    s.msg = msg;
    s.latest = msg.generation;
    s.rigs.push(msg.generation);
    s.target = Math.max(0, Math.min(Math.floor(msg.playhead ?? 0), horizon - 1));
    s.port.post(msg);
  }

  function sendRig(msg: Rig): void {
    const pending = slots.filter((s) => s.state === 'pending');
    const owner = slots.find((s) => s.state === 'live') ?? slots[0]!;
    if (pending.length === 0) { dispatch(owner, msg); return; }
    if (slots.length === 1) { queued = msg; stats.waited++; return; }
    if (pending.length === 1) { stats.overlapped++; dispatch(slots.find((s) => s.state !== 'pending')!, msg); return; }
    if (!replace) { queued = msg; stats.waited++; return; }
    // Both computing: replace the newer edit, leave the older to answer.
    stats.replaced++;
    dispatch(pending.reduce((a, b) => (b.latest > a.latest ? b : a)), msg);
  }

  return {
    stats,
    get busy() { return slots.some((s) => s.state === 'pending' || s.state === 'warming'); },
    post(msg: ToHost): void {
      switch (msg.type) {
        case 'rig': sendRig(msg); break;
        case 'inputs': inputs = msg.inputs; for (const s of slots) s.port.post(msg); break;
        case 'clips': for (const s of slots) s.port.post(msg); break;
        case 'horizon':
          horizon = msg.frames;
          for (const s of slots) if (s.state !== 'parked') s.port.post(msg);
          break;
        case 'ack': {
          const to = acks.shift();
          if (to !== null && to !== undefined) slots[to]!.port.post(msg);
          break;
        }
        case 'ping': (slots.find((s) => s.state === 'live') ?? slots[0]!).port.post(msg); break;
      }
    },
    terminate(): void { for (const s of slots) s.port.terminate(); },
  };
}

function omitKeep(r: Reset): Reset {
  const { keep: _keep, ...rest } = r;
  return rest;
}
