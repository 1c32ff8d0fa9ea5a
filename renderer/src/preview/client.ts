/**
 * The preview client on the main thread: starts the simulation host in a Web Worker (or, without
 * workers, on this thread), sends it the current document (coalesced) and the timeline's inputs, and keeps
 * a mirror of every recorded frame so scrubbing within the recording never waits for the worker.
 *
 * The playhead runs at display rate: tick(Δt) from the viewport's useFrame advances it by Δt·speed/dt
 * frames; the viewport then draws the frame under it. Nothing here re-renders React per frame: the store
 * (previewStore.ts) gets the playhead at most every PUBLISH_MS.
 */
import type { RigDocument } from '../../../shared/rig';
import type { AnimationClip } from '../../../shared/authoring/skeletonInput';
import { BODY_STRIDE, JOINT_STRIDE } from '../../../shared/runtime/trace';
import { createHost } from '../../../shared/preview/host';
import type { PreviewInput } from '../../../shared/preview/engine';
import type { FromHost, HostLayout, ToHost } from '../../../shared/preview/protocol';
import { particlePoser } from '../../../shared/preview/particlePose';
import { RigPoser } from '../../../shared/preview/rigPose';
import { useEditor } from '../state/store';
import { DEFAULT_DURATION_S, SPEED_MAX, SPEED_MIN, usePreview } from './previewStore';
import { previewSource } from './solverState';
import { hostClock, wallClock } from './hostClock';
import { previewWorkerCount, startWorkerPool } from './workerPool';
import { startTrace, traceBatch, traceReset } from './editTrace';

/** A rig edit is sent at once unless one is still being answered: then the newest waits (edits during a
 *  drag coalesce, the last wins) until the host has reset and posted the first frames of the one in flight
 *  — the frame under the playhead — or for at most this long (ms) after its reset. */
const RIG_ANSWER_MS = 150;
const PUBLISH_MS = 66;
/** After a rig edit the viewport holds the picture it has (no draw) until the edit's frame under the playhead
 *  is in the mirror, for at most this long (ms): see holding(). */
const HOLD_MS = 250;
const LATENCY_SAMPLES = 4096;
/** When playback reaches the end of the timeline without a loop it grows by this much (s), up to MAX. */
const EXTEND_S = 10;
const MAX_DURATION_S = 600;
/** Step (s) the timeline is laid out in before a rig says otherwise. */
const DEFAULT_DT = 1 / 60;

/** pooled: two workers (workerPool.ts) that take every edit at once — the client does not hold the newest. */
interface Port { post(msg: ToHost): void; terminate(): void; worker: boolean; pooled?: boolean }

function startHost(onMessage: (m: FromHost) => void): Port {
  if (typeof Worker !== 'undefined') {
    try {
      const workers = previewWorkerCount();
      if (workers > 1) return { ...startWorkerPool(onMessage, (message) => usePreview.setState({ problem: `the simulation worker failed: ${message}` }), workers), worker: true, pooled: true };
      const w = new Worker(new URL('./simWorker.ts', import.meta.url), { type: 'module' });
      w.onmessage = (e: MessageEvent<FromHost>) => onMessage(e.data);
      w.onerror = (e) => usePreview.setState({ problem: `the simulation worker failed: ${e.message}` });
      return { post: (m) => w.postMessage(m), terminate: () => w.terminate(), worker: true };
    } catch { /* fall through to the main-thread host */ }
  }
  // Main-thread fallback: same host, messages delivered asynchronously so the order matches a worker's.
  const host = createHost((m) => queueMicrotask(() => onMessage(m)), (fn) => setTimeout(fn, 0), hostClock);
  return { post: (m) => setTimeout(() => host.receive(structuredClone(m)), 0), terminate: () => undefined, worker: false };
}

export class PreviewClient {
  private port: Port;
  layout: HostLayout | null = null;
  /** Mirror of the recording: `count` frames of layout.frameSize numbers, and their aux records. */
  frames = new Float64Array(0);
  aux = new Float64Array(0);
  count = 0;
  /** Fractional frame under the playhead. */
  playhead = 0;
  /** Bumped on every change of the mirror (frames added, truncated, reset), for redraws. */
  version = 0;
  /** Bumped when recorded frames may have changed content (reset, truncate, problem) — not when frames are
   *  only added: the viewport redraws on a change of (epoch, frameIndex()), not on every batch. */
  epoch = 0;
  /** Per batch: worker compute of its newest frame → receipt here (ms). */
  readonly latencies: number[] = [];
  /** Per batch: worker compute of its newest frame → the first viewport frame after receipt (ms), i.e. when
   *  the viewport could draw it. Batches received within one display frame count once (the newest). */
  readonly displayLatencies: number[] = [];
  private undisplayedSince: number | null = null;
  private publishRecordedTimer: ReturnType<typeof setTimeout> | null = null;
  private lastRecordedPublish = 0;
  /** The host's speed from the newest batch that reported one, not yet published (steps/s), or 0. */
  private speed = 0;
  private generation = 0;
  /** A rig send is queued (scheduleRig). */
  private rigQueued = false;
  /** The generation of the rig sent and not yet answered by its first frames (or a problem), or 0. */
  private rigInFlight = 0;
  private rigPending = false;
  private rigAnswerTimer: ReturnType<typeof setTimeout> | null = null;
  private lastPublish = 0;
  /** A never-stepped simulation of the reset's rig, posed from recorded frames (bones, picking, masses). */
  private poser: RigPoser | null = null;
  private unsubscribe: () => void;
  private lastRig: unknown = null;
  /** The edit whose frame under the playhead the viewport waits for (holding()), or null. */
  private hold: { generation: number; since: number } | null = null;
  /** A hold ended and the viewport has not drawn since: the next edit does not hold (its predecessor's
   *  frame is drawn first). */
  private releasedUndrawn = false;
  /** performance.now() of the newest change of the document's rig (editTrace.ts). */
  private editedAt = NaN;

  constructor() {
    this.port = startHost((m) => this.receive(m));
    usePreview.setState((s) => ({ stats: { ...s.stats, worker: this.port.worker } }));
    this.setDuration(Math.round(DEFAULT_DURATION_S / DEFAULT_DT));
    this.unsubscribe = useEditor.subscribe((state, prev) => {
      // A different creature: its inputs and playhead mean nothing for the new one. The creature and its
      // document arrive in separate store updates (state/editor.ts sets the creature, then syncs the
      // document, in the same task), so the session is reset once both are there.
      if (state.creature !== prev.creature) queueMicrotask(() => this.resetSession(useEditor.getState().document?.rig ?? null));
      const rig = state.document?.rig ?? null;
      if (rig === (prev.document?.rig ?? null)) return;
      this.editedAt = performance.now();
      this.scheduleRig();
    });
    if (useEditor.getState().document) this.scheduleRig();
  }

  dispose(): void {
    this.unsubscribe();
    this.port.terminate();
  }

  // ------------------------------------------------------------------------------------------ document

  /** Send the rig once the current script is done (a creature and its document arrive in two updates of one
   *  task), in a microtask: a timer would wait behind the next animation frame, which a software renderer
   *  spends ~0.2 s drawing (issue 17: a third of an edit's latency went there). */
  private scheduleRig(): void {
    if (this.rigQueued) return;
    this.rigQueued = true;
    queueMicrotask(() => { this.rigQueued = false; this.sendRig(); });
  }

  /** Send the document's rig now, or once the rig in flight is answered (tests and the benchmark call this). */
  sendRig(): void {
    if (this.rigInFlight && !this.port.pooled) { this.rigPending = true; return; }
    this.rigPending = false;
    // The document's rig, or its particle version, or an open particle scene (particleMode.ts).
    const src = previewSource(useEditor.getState().document?.rig ?? null);
    if (!src || src.key === this.lastRig) return;
    this.lastRig = src.key;
    this.rigInFlight = ++this.generation;
    startTrace(this.generation, Math.floor(this.playhead), this.editedAt);
    this.port.post({ type: 'rig', rig: src.rig, generation: this.generation, playhead: Math.floor(this.playhead), ...(src.particles ? { particles: src.particles } : {}) });
    if (!this.hold && !this.releasedUndrawn && this.count > 0 && !usePreview.getState().playing) this.hold = { generation: this.generation, since: performance.now() };
  }

  /**
   * Whether the viewport should keep the picture it has instead of drawing: a rig edit was sent and its
   * frame under the playhead is not in the mirror yet (for at most HOLD_MS). A software renderer (SwiftShader,
   * a machine without a GPU) blocks this thread ~0.2 s per drawn frame while the compositor reads it back; a
   * draw started meanwhile — of the frame 0 the reset leaves, or of the unchanged picture — made the worker's
   * answer wait for it (issue 17: half the edit → playhead latency). One draw then shows the edit.
   */
  holding(): boolean {
    const h = this.hold;
    if (!h) return false;
    if (performance.now() - h.since < HOLD_MS && !(this.layout && this.layout.generation >= h.generation && this.count > Math.floor(this.playhead))) return true;
    this.releaseHold();
    return false;
  }

  /** The viewport drew the scene. */
  noteDrawn(): void { this.releasedUndrawn = false; }

  private releaseHold(): void {
    if (!this.hold) return;
    this.hold = null;
    this.releasedUndrawn = true;
  }

  /** The rig in flight is answered: send the newest edit made meanwhile, if any. */
  private rigAnswered(): void {
    if (!this.rigInFlight) return;
    this.rigInFlight = 0;
    if (this.rigAnswerTimer) { clearTimeout(this.rigAnswerTimer); this.rigAnswerTimer = null; }
    if (this.rigPending) this.sendRig();
  }

  /** The generation of the newest rig sent to the host. */
  get sentGeneration(): number { return this.generation; }

  /** Whether the frames shown belong to the current document (no edit pending here or in the worker). */
  get current(): boolean {
    return !this.rigQueued && !this.rigPending && this.layout?.generation === this.generation && this.lastRig === (previewSource(useEditor.getState().document?.rig ?? null)?.key ?? null);
  }

  private resetSession(rig: RigDocument | null): void {
    this.playhead = 0;
    this.setPlaying(false);
    // A new creature starts on the default timeline in its rig's steps, whatever the last one had grown
    // to (playback extends it) or a particle example had set (openParticleScene sets its own afterwards).
    this.setDuration(Math.round(DEFAULT_DURATION_S / (rig?.simulation.dt ?? DEFAULT_DT)));
    usePreview.setState({ inputs: [], selectedPoint: null, loop: { enabled: false, start: 0, end: 0 } });
    this.port.post({ type: 'inputs', inputs: [], playhead: 0 });
  }

  // ------------------------------------------------------------------------------------------ host messages

  private receive(m: FromHost): void {
    switch (m.type) {
      case 'reset': {
        const prev = this.layout;
        this.layout = m;
        traceReset(m.generation, m.stamps);
        if (m.keep !== undefined && prev && prev.frameSize === m.frameSize && prev.aux.size === m.aux.size) {
          // An edit of motor gains or controller parameters: the same bodies, frames 0 … keep − 1 unchanged.
          this.count = Math.min(this.count, m.keep);
        } else {
          this.count = 0;
          this.frames = new Float64Array(Math.max(1, usePreview.getState().duration + 1) * m.frameSize);
          this.aux = new Float64Array(Math.max(1, usePreview.getState().duration + 1) * m.aux.size);
          this.buildPoser(m.rig);
        }
        this.version++;
        this.epoch++;
        usePreview.setState({ problem: null, recorded: this.count, dt: m.dt });
        if (m.generation === this.rigInFlight && !this.rigAnswerTimer) this.rigAnswerTimer = setTimeout(() => { this.rigAnswerTimer = null; this.rigAnswered(); }, RIG_ANSWER_MS);
        break;
      }
      case 'truncate':
        // Frames before the earliest changed input are unchanged (determinism): keep showing them while
        // the host re-simulates from its snapshot (it resends them, identical).
        this.count = Math.min(this.count, m.keep);
        this.version++;
        this.epoch++;
        usePreview.setState({ recorded: this.count, problem: null });
        break;
      case 'frames': {
        // Ack first: the host sends its next batch (everything computed meanwhile) as soon as it can.
        this.port.post({ type: 'ack' });
        this.latencies.push(wallClock() - m.computedAt);
        if (this.latencies.length > LATENCY_SAMPLES) this.latencies.splice(0, this.latencies.length - LATENCY_SAMPLES);
        this.undisplayedSince = m.computedAt;
        if (this.rigInFlight && this.layout?.generation === this.rigInFlight) queueMicrotask(() => this.rigAnswered());
        const L = this.layout;
        if (!L || m.start > this.count) break; // frames of a recording we have already dropped
        const end = m.start + m.count;
        traceBatch(L.generation, m.start, end, m.computedAt, m.postedAt, end > usePreview.getState().duration);
        this.ensure(end);
        // Every frame goes into the recording; the viewport shows only the newest under the playhead.
        this.frames.set(m.frames, m.start * L.frameSize);
        this.aux.set(m.aux, m.start * L.aux.size);
        this.count = Math.max(this.count, end);
        this.version++;
        if (m.stepsPerSecond > 0) this.speed = m.stepsPerSecond;
        this.publishRecorded();
        break;
      }
      case 'problem':
        this.releaseHold();
        if (m.frame === null) this.rigAnswered();
        usePreview.setState({ problem: m.message });
        if (m.frame === null) { this.layout = null; this.count = 0; this.version++; this.epoch++; usePreview.setState({ recorded: 0 }); }
        break;
      case 'pong': break;
    }
  }

  /**
   * The store's `recorded` (timeline fill, plots) at most every PUBLISH_MS, plus a trailing update: React
   * work per batch would otherwise be the main thread's bottleneck while the worker fills the timeline.
   * `count` itself is always exact.
   */
  private publishRecorded(): void {
    const now = performance.now();
    if (now - this.lastRecordedPublish >= PUBLISH_MS) { this.publishNow(); return; }
    this.publishRecordedTimer ??= setTimeout(() => { this.publishRecordedTimer = null; this.publishNow(); }, PUBLISH_MS - (now - this.lastRecordedPublish));
  }

  /** `recorded` and the speed / latency stats together, in one store update (the timeline bar re-renders once). */
  private publishNow(): void {
    this.lastRecordedPublish = performance.now();
    const s = usePreview.getState();
    const speed = this.speed;
    this.speed = 0;
    const stats = speed > 0 ? { ...s.stats, stepsPerSecond: speed, latencyMs: this.latencyMedian() } : s.stats;
    if (s.recorded !== this.count || stats !== s.stats) usePreview.setState({ recorded: this.count, stats });
  }

  private ensure(frames: number): void {
    const L = this.layout!;
    if (frames * L.frameSize <= this.frames.length) return;
    const cap = Math.max(frames, Math.ceil((this.frames.length / L.frameSize) * 2));
    const f = new Float64Array(cap * L.frameSize); f.set(this.frames.subarray(0, this.count * L.frameSize)); this.frames = f;
    const a = new Float64Array(cap * L.aux.size); a.set(this.aux.subarray(0, this.count * L.aux.size)); this.aux = a;
  }

  latencyMedian(): number {
    if (this.latencies.length === 0) return 0;
    const s = [...this.latencies].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)]!;
  }

  // ------------------------------------------------------------------------------------------ transport

  setPlaying(playing: boolean): void {
    this.releaseHold();
    if (playing && this.count > 0 && Math.floor(this.playhead) >= usePreview.getState().duration) this.playhead = this.loopStart();
    usePreview.setState({ playing });
    this.publish(true);
  }

  togglePlay(): void { this.setPlaying(!usePreview.getState().playing); }

  setSpeed(speed: number): void {
    if (!Number.isFinite(speed)) return;
    usePreview.setState({ speed: Math.min(SPEED_MAX, Math.max(SPEED_MIN, speed)) });
  }

  /** Go to a frame (clamped to the recording; a frame not recorded yet is shown when it arrives). */
  seek(frame: number): void {
    const duration = usePreview.getState().duration;
    this.playhead = Math.max(0, Math.min(Math.round(frame), duration));
    this.releaseHold();
    this.publish(true);
  }

  step(frames: number): void {
    this.setPlaying(false);
    this.seek(Math.floor(this.playhead) + frames);
  }

  reset(): void {
    this.setPlaying(false);
    this.seek(0);
  }

  setLoop(loop: Partial<{ enabled: boolean; start: number; end: number }>): void {
    const cur = usePreview.getState().loop;
    const duration = usePreview.getState().duration;
    const next = { ...cur, ...loop };
    next.start = Math.max(0, Math.min(Math.round(next.start), duration - 1));
    next.end = Math.max(next.start + 1, Math.min(Math.round(next.end), duration));
    usePreview.setState({ loop: next });
  }

  setDuration(frames: number): void {
    const f = Math.max(2, Math.round(frames));
    usePreview.setState({ duration: f });
    this.port.post({ type: 'horizon', frames: f + 1 });
  }

  private loopStart(): number {
    const { loop } = usePreview.getState();
    return loop.enabled ? loop.start : 0;
  }

  /** Advance the playhead by a display interval (s). Called once per drawn frame. */
  tick(delta: number): void {
    if (this.undisplayedSince !== null) {
      this.displayLatencies.push(wallClock() - this.undisplayedSince);
      if (this.displayLatencies.length > LATENCY_SAMPLES) this.displayLatencies.splice(0, this.displayLatencies.length - LATENCY_SAMPLES);
      this.undisplayedSince = null;
    }
    const s = usePreview.getState();
    if (!s.playing || !this.layout || this.count === 0) { this.publish(false); return; }
    let p = this.playhead + (Math.min(delta, 0.1) * s.speed) / this.layout.dt;
    if (s.loop.enabled && s.loop.end > s.loop.start) {
      if (p >= s.loop.end || p < s.loop.start) p = s.loop.start + ((((p - s.loop.start) % (s.loop.end - s.loop.start)) + (s.loop.end - s.loop.start)) % (s.loop.end - s.loop.start));
    } else if (p >= s.duration) {
      if (s.duration * this.layout.dt < MAX_DURATION_S) this.setDuration(s.duration + Math.round(EXTEND_S / this.layout.dt));
      else { p = s.duration; usePreview.setState({ playing: false }); }
    }
    // Playback never runs past what the worker has computed; it waits there.
    this.playhead = Math.min(p, this.count - 1);
    this.publish(false);
  }

  private publish(force: boolean): void {
    const now = performance.now();
    if (!force && now - this.lastPublish < PUBLISH_MS) return;
    this.lastPublish = now;
    const f = this.frameIndex();
    if (usePreview.getState().playhead !== f) usePreview.setState({ playhead: f });
  }

  /** The recorded frame under the playhead (or the last recorded one while the worker catches up); −1 if none. */
  frameIndex(): number {
    return this.count === 0 ? -1 : Math.min(Math.floor(this.playhead), this.count - 1);
  }

  // ------------------------------------------------------------------------------------------ inputs

  /** Replace the timeline's inputs (sorted by frame) and re-simulate from the snapshot before the earliest change. */
  setInputs(inputs: PreviewInput[]): void {
    const sorted = [...inputs].sort((a, b) => a.frame - b.frame);
    usePreview.setState({ inputs: sorted });
    this.port.post({ type: 'inputs', inputs: sorted, playhead: Math.floor(this.playhead) });
  }

  addInput(input: PreviewInput): void { this.setInputs([...usePreview.getState().inputs, input]); }

  setClips(clips: AnimationClip[]): void { this.port.post({ type: 'clips', clips, playhead: Math.floor(this.playhead) }); }

  // ------------------------------------------------------------------------------------------ reading frames

  /** Frame f's flat numbers (a view into the mirror, valid until the next message). */
  frame(f: number): Float64Array | null {
    const L = this.layout;
    if (!L || f < 0 || f >= this.count) return null;
    return this.frames.subarray(f * L.frameSize, (f + 1) * L.frameSize);
  }

  auxOf(f: number): Float64Array | null {
    const L = this.layout;
    if (!L || f < 0 || f >= this.count) return null;
    return this.aux.subarray(f * L.aux.size, (f + 1) * L.aux.size);
  }

  /** Offset of a body's block (p, q, v, w) in a flat frame, or −1. */
  bodyOffset(name: string): number {
    const i = this.layout?.layout.bodies.indexOf(name) ?? -1;
    return i < 0 ? -1 : 1 + i * BODY_STRIDE;
  }

  /** Offset of a joint's block (error, torque, maxTorque, saturated) in a flat frame, or −1. */
  jointOffset(name: string): number {
    const L = this.layout;
    const i = L?.layout.joints.indexOf(name) ?? -1;
    return !L || i < 0 ? -1 : 1 + L.layout.bodies.length * BODY_STRIDE + i * JOINT_STRIDE;
  }

  /**
   * Bone world poses for frame f through the runtime's read-out (bone world = body world · offset⁻¹;
   * bones without a body keep their rest placement under their parent): 7 numbers per bone in
   * `boneNames()` order. Returns false when there is no such frame.
   */
  writeBoneWorld(f: number, out: Float64Array): boolean {
    const poser = this.poser, fr = this.frame(f), L = this.layout;
    const particles = particlePoser(L);
    if (particles && fr) { particles.writeBoneWorld(fr, out); return true; }
    if (!poser || !fr || !L) return false;
    poser.writeBoneWorld(L.layout, fr, out);
    return true;
  }

  /** The body a world ray hits first with the bodies where the shown frame has them. */
  pickBody(origin: readonly [number, number, number], direction: readonly [number, number, number], maxDistance: number): { body: string; point: [number, number, number]; distance: number } | null {
    const f = this.frameIndex(), poser = this.poser;
    const particles = particlePoser(this.layout), fr = this.frame(f);
    if (particles && fr) { const len = Math.hypot(...direction); return len > 0 ? particles.pick(fr, origin, direction.map((d) => d / len), maxDistance) : null; }
    if (!poser || f < 0) return null;
    this.writeBoneWorld(f, new Float64Array(this.boneNames().length * 7));
    const len = Math.hypot(direction[0], direction[1], direction[2]);
    if (!(len > 0)) return null;
    return poser.pick(origin, [direction[0] / len, direction[1] / len, direction[2] / len], maxDistance);
  }

  boneNames(): readonly string[] { return particlePoser(this.layout)?.boneNames ?? this.poser?.boneNames ?? []; }

  /** Mass (kg) and principal-axis-free inertia of a body, from the pose simulation's world. */
  massOf(body: string): { mass: number; inertia: readonly number[]; centroid: readonly number[] } | null {
    return this.poser?.massOf(body) ?? null;
  }

  private buildPoser(rig: RigDocument): void {
    try {
      this.poser = new RigPoser(rig);
    } catch {
      this.poser = null;
    }
  }
}

let client: PreviewClient | null = null;

/** The one preview client, started on first use. */
export function previewClient(): PreviewClient {
  client ??= new PreviewClient();
  return client;
}

export const hasPreviewClient = (): boolean => client !== null;
