/**
 * Where the time of one rig edit goes, hop by hop (issue 17: edit → playhead frame), for the latency
 * benchmark (bench/preview-latency.ts reads it through window.__marionettePreview.editTraces()). One record
 * per rig generation sent to the host; every stamp is performance.now() on the main thread (the host's
 * wall-clock stamps are converted: wall − performance.timeOrigin), NaN until that hop happens:
 *
 *   edited          the document's rig changed in the editor store (the newest change this send carries)
 *   sent            the client posted the rig to the host
 *   received        the host took the message (after the slice it was running, if any)
 *   validated       … validated it
 *   built           … built the engine (simulation, inputs, clips)
 *   resumed         … took over the previous run's frames up to `from` (editFrontier.ts) and posted 'reset'
 *   resetReceived   the client took the 'reset' (the viewport may now show frame ≤ keep − 1)
 *   computed        the host had computed the frame under the playhead (its batch's computedAt)
 *   posted          … and posted that batch
 *   received2       the client took that batch (the frame is in the mirror)
 *   shown           the viewport posed the creature from that frame (useFrame, PreviewLayer)
 *   drawn           the scene was drawn with it (gl.render returned; the GPU may still be at work)
 *   painted         the first task after that frame's rendering step: the frame has been handed to the
 *                   compositor (with a software renderer this includes reading the picture back)
 *   filled          the mirror holds the edit's whole timeline (its last batch taken)
 *
 * Not shipped behaviour: a few numbers per edit, kept for the last TRACE_KEEP generations.
 */
import type { HostStamps } from '../../../shared/preview/protocol';

export interface EditTrace {
  generation: number;
  /** The frame under the playhead when the rig was sent (the frame the host computes first). */
  playhead: number;
  /** The frame the host re-simulated from (0: from the start; more: a snapshot taken over), or −1. */
  from: number;
  edited: number; sent: number;
  received: number; validated: number; built: number; resumed: number;
  resetReceived: number;
  computed: number; posted: number; received2: number;
  shown: number; drawn: number; painted: number; filled: number;
  /** The pixel ratio the edit's frame was drawn at, relative to the canvas's own (1, or less on a slow
   *  renderer: Viewport.tsx), NaN until drawn. */
  drawnScale: number;
}

const TRACE_KEEP = 256;
export const editTraces = new Map<number, EditTrace>();

export function startTrace(generation: number, playhead: number, edited: number): void {
  const now = performance.now();
  editTraces.set(generation, {
    generation, playhead, from: -1, edited: Number.isFinite(edited) ? edited : now, sent: now,
    received: NaN, validated: NaN, built: NaN, resumed: NaN, resetReceived: NaN, computed: NaN, posted: NaN, received2: NaN, shown: NaN, drawn: NaN, painted: NaN, filled: NaN, drawnScale: NaN,
  });
  if (editTraces.size > TRACE_KEEP) editTraces.delete(editTraces.keys().next().value!);
}

const fromWall = (t: number): number => t - performance.timeOrigin;

export function traceReset(generation: number, stamps: HostStamps | undefined): void {
  const t = editTraces.get(generation);
  if (!t) return;
  t.resetReceived = performance.now();
  if (!stamps) return;
  t.received = fromWall(stamps.received); t.validated = fromWall(stamps.validated);
  t.built = fromWall(stamps.built); t.resumed = fromWall(stamps.resumed); t.from = stamps.from;
}

/** A batch of `generation` holding frames [start, end) arrived (`complete`: the timeline is now whole): the
 *  first one to hold the playhead frame counts. */
export function traceBatch(generation: number, start: number, end: number, computedAt: number, postedAt: number, complete: boolean): void {
  const t = editTraces.get(generation);
  if (!t) return;
  if (complete && Number.isNaN(t.filled)) t.filled = performance.now();
  if (!Number.isNaN(t.received2) || t.playhead < start || t.playhead >= end) return;
  t.computed = fromWall(computedAt); t.posted = fromWall(postedAt); t.received2 = performance.now();
}

/** The viewport posed frame `index` of `generation`. */
export function traceShown(generation: number, index: number): void {
  const t = editTraces.get(generation);
  if (t && index === t.playhead && Number.isNaN(t.shown)) t.shown = performance.now();
}

let paintChannel: MessageChannel | null = null;
const paintWaiting: EditTrace[] = [];

/** The scene was drawn showing frame `index` of `generation` (in an animation frame callback). */
export function traceDrawn(generation: number, index: number, scale = 1): void {
  const t = editTraces.get(generation);
  if (!t || index !== t.playhead || Number.isNaN(t.shown) || !Number.isNaN(t.drawn)) return;
  t.drawn = performance.now();
  t.drawnScale = scale;
  if (typeof MessageChannel === 'undefined') return;
  if (!paintChannel) {
    paintChannel = new MessageChannel();
    paintChannel.port1.onmessage = () => { const now = performance.now(); for (const w of paintWaiting.splice(0)) w.painted = now; };
  }
  paintWaiting.push(t);
  paintChannel.port2.postMessage(0);
}
