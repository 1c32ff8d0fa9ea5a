/**
 * The simulation host: owns a PreviewEngine, answers the client's messages and simulates ahead in slices
 * (SLICE_MS of work, then yields so new messages — an edit, a scrub input — are seen promptly: a new rig
 * or new inputs replace the work in progress). After an edit it re-simulates from where the edit matters
 * (a rig edit that leaves the start of the recording unchanged resumes from the previous run's snapshot:
 * editFrontier.ts, PreviewEngine.resumeFrom), computes up to the client's playhead first and posts that
 * batch at once, then fills the rest of the timeline behind it, one batch in flight at a time but for the
 * last (posted at once, as the playhead's). No DOM:
 * the adapter that runs it — the worker (renderer/src/preview/simWorker.ts), the client's main-thread
 * fallback, a unit test — hands it a way to post, to schedule the next slice and to read the clock.
 */
import { validateRig, formatProblem, type RigDocument } from '../rig';
import type { AnimationClip } from '../authoring/skeletonInput';
import { PreviewEngine, type PreviewInput } from './engine';
import { editFrontier } from './editFrontier';
import { startParticleEngine, type ParticlePreviewEngine, type ParticleRequest } from './particleEngine';
import type { FromHost, HostStamps, ToHost } from './protocol';

/** Work per slice (ms): long enough to amortise posting, short enough to react to edits within a frame. */
const SLICE_MS = 12;

/** Clocks in ms: `now` for the slice budget and speeds (monotonic where the platform has one), `wall` for
 *  the latency stamps (a wall clock both sides of a worker agree on: performance.timeOrigin + now()). */
export interface HostClock { now(): number; wall(): number }

const dateClock: HostClock = { now: () => Date.now(), wall: () => Date.now() };

/**
 * post: deliver a message (the frames' buffers listed in `transfer` may be moved, not copied); schedule:
 * run fn soon, after pending messages (a worker: setTimeout 0; a test: a queue it drains).
 */
export function createHost(post: (msg: FromHost, transfer?: ArrayBuffer[]) => void, schedule: (fn: () => void) => void, clock: HostClock = dateClock) {
  let engine: PreviewEngine | ParticlePreviewEngine | null = null;
  let generation = 0;
  let inputs: PreviewInput[] = [];
  let clips: AnimationClip[] = [];
  let horizon = 0;
  let sent = 0;
  let scheduled = false;
  let reportedFailure = false;
  /** 'frames' batches posted and not yet acknowledged (0 or 1). */
  let inFlight = 0;
  /** Wall clock when the newest unsent frame was computed, and the speed of the last slice. */
  let computedAt = 0;
  let lastSpeed = 0;
  /** The frame to reach and post first after an edit (the client's playhead), or −1. */
  let urgent = -1;

  const kick = () => {
    if (scheduled) return;
    scheduled = true;
    schedule(run);
  };

  function run() {
    scheduled = false;
    const e = engine;
    if (!e || e.failure) return;
    const t0 = clock.now();
    let steps = 0;
    while (e.length < horizon && !e.failure && clock.now() - t0 < SLICE_MS) {
      steps += e.advance(Math.min(8, horizon - e.length, urgent >= e.length ? urgent + 1 - e.length : Infinity));
      if (urgent >= 0 && (e.length > urgent || e.failure)) {
        // The playhead's frame exists: post it now, whatever is in flight (at most two batches then).
        urgent = -1;
        computedAt = clock.wall();
        flush(true);
      }
    }
    const ms = clock.now() - t0;
    if (steps > 0) { computedAt = clock.wall(); lastSpeed = ms > 0 ? (steps / ms) * 1000 : 0; }
    // The timeline's last frames go out at once too (at most two batches in flight): a client whose
    // thread is busy (a software renderer's draw) then takes them with the batch before, one round trip
    // sooner than on its ack.
    if (inFlight === 0 || (steps > 0 && e.length >= horizon)) flush();
    if (e.failure && !reportedFailure) {
      reportedFailure = true;
      post({ type: 'problem', message: e.failure, frame: e.length - 1 });
    }
    if (e.length < horizon && !e.failure) kick();
  }

  function flush(isUrgent = false) {
    const e = engine;
    if (!e || e.length <= sent) return;
    const { frames, aux } = e.slice(sent, e.length);
    const msg: FromHost = { type: 'frames', start: sent, count: e.length - sent, frames, aux, computedAt, postedAt: clock.wall(), stepsPerSecond: lastSpeed, ...(isUrgent ? { urgent: true as const } : {}) };
    sent = e.length;
    lastSpeed = 0;
    inFlight++;
    post(msg, [frames.buffer as ArrayBuffer, aux.buffer as ArrayBuffer]);
  }

  /** After an edit that kept `kept` frames: the playhead's frame is computed and posted first. */
  function prioritise(playhead: number | undefined, kept: number) {
    urgent = playhead !== undefined && playhead >= kept ? Math.min(Math.floor(playhead), horizon - 1) : -1;
  }

  function setRig(raw: unknown, gen: number, playhead?: number) {
    const received = clock.wall();
    generation = gen;
    const prev = engine instanceof PreviewEngine ? engine : null;
    const prevSent = sent;
    engine = null;
    sent = 0;
    urgent = -1;
    reportedFailure = false;
    const v = validateRig(raw);
    if (!v.ok) {
      const first = v.problems[0];
      post({ type: 'problem', message: `the rig cannot be simulated yet: ${first ? formatProblem(first) : 'invalid'}${v.problems.length > 1 ? ` (+${v.problems.length - 1} more)` : ''}`, frame: null });
      return;
    }
    const validated = clock.wall();
    try {
      const rig: RigDocument = v.rig;
      const e = new PreviewEngine(rig, { capacity: Math.max(1024, horizon + 1) });
      e.setClips(clips);
      e.setInputs(inputs);
      const built = clock.wall();
      // An edit that cannot change frames 0 … frontier (same bodies, joints, solver: motor gains, controller
      // parameters): keep them, resume from the previous run's last snapshot at or before it.
      const frontier = prev ? editFrontier(prev.rig, rig, inputs) : -1;
      const keep = prev && frontier >= 0 ? e.resumeFrom(prev, frontier) + 1 : 0;
      engine = e;
      sent = Math.min(prevSent, keep);
      const stamps: HostStamps = { received, validated, built, resumed: clock.wall(), from: e.length - 1 };
      post({
        type: 'reset', generation, rig, layout: e.recorder.layout, frameSize: e.frameSize, aux: e.aux, dt: e.dt,
        controllers: [...e.sim.controllerNames], ...(keep > 0 ? { keep: sent } : {}), stamps,
      });
      prioritise(playhead, sent);
      kick();
    } catch (err) {
      post({ type: 'problem', message: err instanceof Error ? err.message : String(err), frame: null });
    }
  }

  function setParticles(raw: unknown, request: ParticleRequest, gen: number) {
    generation = gen;
    engine = null;
    sent = 0;
    urgent = -1;
    reportedFailure = false;
    const r = startParticleEngine(raw, request, Math.max(1024, horizon + 1));
    if (!r.ok) { post({ type: 'problem', message: r.message, frame: null }); return; }
    const e = r.engine;
    e.setInputs(inputs);
    engine = e;
    post({ type: 'reset', generation, rig: e.rig, layout: e.layout, frameSize: e.frameSize, aux: e.aux, dt: e.dt, controllers: [], particles: e.particles });
    kick();
  }

  function truncateTo(length: number, keep: number, playhead?: number) {
    if (length < sent) {
      post({ type: 'truncate', length, keep: Math.max(length, Math.min(keep, sent)) });
      // The last kept frame goes out again: its physics is unchanged, but its record shows the target in
      // force at it, which a key on that very frame changes (PreviewEngine.setInputs).
      sent = Math.max(0, length - 1);
      reportedFailure = false;
    }
    prioritise(playhead, Math.min(length, sent));
    kick();
  }

  return {
    receive(msg: ToHost) {
      switch (msg.type) {
        case 'rig': if (msg.particles) setParticles(msg.rig, msg.particles, msg.generation); else setRig(msg.rig, msg.generation, msg.playhead); break;
        case 'inputs': {
          const before = engine?.length ?? 0;
          inputs = msg.inputs;
          if (engine) {
            const len = engine.setInputs(inputs);
            // Unchanged inputs (len stays) need no priority: the fill just goes on.
            if (len < before) truncateTo(len, engine.lastChange + 1, msg.playhead); else kick();
          }
          break;
        }
        case 'clips':
          clips = msg.clips;
          if (engine) truncateTo(engine.setClips(clips), 0, msg.playhead);
          break;
        case 'horizon':
          horizon = msg.frames;
          kick();
          break;
        case 'ack':
          inFlight = Math.max(0, inFlight - 1);
          if (inFlight === 0) flush();
          break;
        case 'ping': post({ type: 'pong', id: msg.id, length: engine?.length ?? 0 }); break;
      }
    },
  };
}
