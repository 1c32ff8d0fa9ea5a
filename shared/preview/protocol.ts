/**
 * Messages between the preview client (renderer/src/preview/client.ts, main thread) and the simulation
 * host (host.ts: in the worker simWorker.ts, or the client's main-thread fallback). Frames travel as
 * transferable Float64Arrays, never as objects.
 */
import type { RigDocument } from '../rig';
import type { AnimationClip } from '../authoring/skeletonInput';
import type { AuxLayout, PreviewInput } from './engine';
import type { FrameLayout } from '../runtime';
import type { ParticleLayout, ParticleRequest } from './particleEngine';

/** `playhead` on an edit (rig, inputs, clips): the frame the viewport shows. The host re-simulates up to it
 *  first and posts it at once (ahead of the one-batch-in-flight rule), then fills the rest of the timeline. */
export type ToHost =
  /** A new document: validated, then simulated from frame 0 (with the current inputs and clips). With
   *  `particles`, under the particle solver: the scene given there, or the rig's particle version. */
  | { type: 'rig'; rig: unknown; generation: number; particles?: ParticleRequest; playhead?: number }
  | { type: 'inputs'; inputs: PreviewInput[]; playhead?: number }
  | { type: 'clips'; clips: AnimationClip[]; playhead?: number }
  /** Simulate until the recording holds this many frames (the timeline's length). */
  | { type: 'horizon'; frames: number }
  /** The client has taken the last 'frames' batch. The host keeps at most one batch in flight: frames
   *  computed meanwhile go out together in the next one, so batches never queue behind a slow frame on the
   *  main thread and what arrives is always the newest the host has. */
  | { type: 'ack' }
  /** Benchmark only: resend no frames, just count how many per second the host computes. */
  | { type: 'ping'; id: number };

export interface HostLayout {
  generation: number;
  rig: RigDocument;
  layout: FrameLayout;
  /** Present when the recording is under the particle solver (particleEngine.ts): what the frames hold. */
  particles?: ParticleLayout;
  frameSize: number;
  aux: AuxLayout;
  dt: number;
  controllers: string[];
}

/** Wall-clock stamps (ms, as `computedAt`) of one rig edit's way through the host, for the latency
 *  benchmark's hops (bench/preview-latency.ts): the message taken, validated, its engine built (simulation
 *  created, inputs and clips set), the previous run's frames and snapshot taken over (resumeFrom); and the
 *  frame it re-simulates from (`from`: the snapshot resumed from, 0 for a fresh run). */
export interface HostStamps { received: number; validated: number; built: number; resumed: number; from: number }

export type FromHost =
  /** The recording restarts for a (new) rig: everything the client holds is dropped — except, with `keep`,
   *  frames 0 … keep − 1, which the edit cannot change (an edit of motor gains or controller parameters:
   *  editFrontier.ts; same layout) and the host does not send again. */
  | ({ type: 'reset'; keep?: number; stamps?: HostStamps } & HostLayout)
  /** The recording was cut to `length` frames (inputs changed); frames from there follow. Frames before
   *  `keep` are unchanged (they precede every changed input), so a client may keep showing them. */
  | { type: 'truncate'; length: number; keep: number }
  /** Frames [start, start + count): `frames` count × frameSize numbers, `aux` count × aux.size.
   *  computedAt: wall clock (performance.timeOrigin + performance.now(), ms) when the newest of these frames
   *  had been computed; postedAt: when the batch was posted (later, if it waited for the client's ack). */
  | { type: 'frames'; start: number; count: number; frames: Float64Array; aux: Float64Array; computedAt: number; postedAt: number; stepsPerSecond: number; /** the batch that holds the client's playhead frame, posted ahead of the fill */ urgent?: true }
  /** The rig cannot be simulated (invalid, or the world blew up); `frame` where it stopped, if any. */
  | { type: 'problem'; message: string; frame: number | null }
  | { type: 'pong'; id: number; length: number };

