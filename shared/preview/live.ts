/**
 * Live simulate (what the engines' physics-asset editors call Simulate): the physics of the previewed rig
 * runs at real time, motors and gait controllers driving, and the user's grab, poke, blast and go limp /
 * power on act at once — beside the recorded timeline, which it does not touch. No DOM: the adapter that
 * runs it (renderer/src/preview/liveWorker.ts, a unit test) hands it a way to post, to schedule and a clock.
 *
 * A session starts from a frame of the recording (the one on screen): it re-simulates the recording's
 * inputs before that frame (the recording is a pure function of rig, clips and inputs, so this is the same
 * state), then steps on its own. Each tick runs the steps real time asks for (at most MAX_CATCHUP, so a
 * slow machine runs in slow motion instead of freezing) and posts only the newest frame. Its inputs are
 * applied at the newest frame and are not recorded on the timeline; stopping the session drops it. A
 * 'target' input (the steering target marker dragged) steers the gait from the next step on.
 */
import { validateRig, formatProblem } from '../rig';
import type { AnimationClip } from '../authoring/skeletonInput';
import { PreviewEngine } from './engine';
import { expandInputs, type PreviewInput } from './input';

/** Steps run in one tick at most (the rest of the time owed is dropped: slow motion, never a spiral). */
export const MAX_CATCHUP = 6;
/** A session ends after this long (s): it keeps every frame it stepped (the engine's recording). */
export const LIVE_MAX_SECONDS = 300;

export type ToLive =
  /** Start (or restart) a session: `rig` validated, the recording's `inputs` before `frame` replayed. */
  | { type: 'start'; session: number; rig: unknown; clips: AnimationClip[]; inputs: PreviewInput[]; frame: number }
  /** Act now (grab, grabMove, release, impulse, blast, limp; target: steer toward it from the next step). */
  | { type: 'input'; session: number; input: PreviewInput }
  | { type: 'stop' };

export type FromLive =
  /** The session runs from recording frame `frame`; frames follow with index frame + steps. */
  | { type: 'started'; session: number; frame: number; frameSize: number; auxSize: number }
  /** The newest frame (flat frame and aux record as the recording's) and the speed of the last second. */
  | { type: 'frame'; session: number; index: number; frame: Float64Array; aux: Float64Array; realTime: number }
  | { type: 'problem'; session: number; message: string };

export interface LiveClock { now(): number }

/** post: deliver a message; schedule: run fn after about `ms` ms. */
export function createLiveHost(post: (msg: FromLive, transfer?: ArrayBuffer[]) => void, schedule: (fn: () => void, ms: number) => void, clock: LiveClock) {
  let engine: PreviewEngine | null = null;
  let session = 0;
  /** Wall time (ms) of step 0 of the session's own steps, and the steps run since. */
  let t0 = 0;
  let stepped = 0;
  let running = false;
  /** Steps run and simulated time over the last second, for the real-time ratio. */
  let window: { at: number; steps: number } = { at: 0, steps: 0 };
  let realTime = 1;

  function stop(): void {
    engine = null;
    running = false;
  }

  function start(msg: Extract<ToLive, { type: 'start' }>): void {
    stop();
    session = msg.session;
    const v = validateRig(msg.rig);
    if (!v.ok) {
      const first = v.problems[0];
      post({ type: 'problem', session, message: `the rig cannot be simulated: ${first ? formatProblem(first) : 'invalid'}` });
      return;
    }
    try {
      const frame = Math.max(0, Math.floor(msg.frame));
      const e = new PreviewEngine(v.rig, { capacity: Math.max(1024, frame + 600) });
      e.setClips(msg.clips);
      e.setInputs(expandInputs(msg.inputs).filter((i) => i.frame < frame));
      while (e.length <= frame && !e.failure) e.advance(Math.min(64, frame + 1 - e.length));
      if (e.failure) { post({ type: 'problem', session, message: e.failure }); return; }
      engine = e;
      post({ type: 'started', session, frame, frameSize: e.frameSize, auxSize: e.aux.size });
      send(e);
      t0 = clock.now();
      stepped = 0;
      window = { at: t0, steps: 0 };
      realTime = 1;
      running = true;
      schedule(tick, 0);
    } catch (err) {
      post({ type: 'problem', session, message: err instanceof Error ? err.message : String(err) });
    }
  }

  function send(e: PreviewEngine): void {
    const { frames, aux } = e.slice(e.length - 1, e.length);
    post({ type: 'frame', session, index: e.length - 1, frame: frames, aux, realTime }, [frames.buffer as ArrayBuffer, aux.buffer as ArrayBuffer]);
  }

  function tick(): void {
    const e = engine;
    if (!running || !e) return;
    const now = clock.now(), stepMs = e.dt * 1000;
    let owed = Math.floor((now - t0) / stepMs) - stepped;
    if (owed > MAX_CATCHUP) { t0 += (owed - MAX_CATCHUP) * stepMs; owed = MAX_CATCHUP; }
    if (owed > 0) {
      e.advance(owed);
      stepped += owed;
      window.steps += owed;
      if (now - window.at >= 1000) { realTime = (window.steps * stepMs) / (now - window.at); window = { at: now, steps: 0 }; }
      if (e.failure) { post({ type: 'problem', session, message: e.failure }); stop(); return; }
      send(e);
      if (stepped * e.dt >= LIVE_MAX_SECONDS) { post({ type: 'problem', session, message: `Live simulate stops after ${LIVE_MAX_SECONDS} s` }); stop(); return; }
    }
    // Wake about when the next step is due (a few ms early is harmless: nothing is owed yet).
    schedule(tick, Math.max(1, Math.min(stepMs, t0 + (stepped + 1) * stepMs - clock.now())));
  }

  return {
    receive(msg: ToLive): void {
      switch (msg.type) {
        case 'start': start(msg); break;
        case 'input': if (engine && msg.session === session) engine.applyNow(msg.input); break;
        case 'stop': stop(); break;
      }
    },
    /** For tests: the session's engine (null when stopped). */
    get engine(): PreviewEngine | null { return engine; },
  };
}
