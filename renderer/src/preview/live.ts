/**
 * Live simulate on the main thread (issue 15 item 4): a toggle beside the recorded timeline. On, the
 * physics runs at real time in its own worker (liveWorker.ts → shared/preview/live.ts) from the frame on
 * screen, the gait and motors driving, and the viewport shows its newest frame; the preview's inputs —
 * grab, poke, blast, go limp / power on (previewApi.ts) — act on it at once instead of being stamped on
 * the timeline, and dragging the steering target marker (TargetMarker.tsx) steers the live creature. Off,
 * the viewport returns to the recording where it was; nothing of the live run is kept.
 *
 * How the viewport shows it without a second read path: while on, the preview client's frame reads
 * (frameIndex, frame, auxOf) answer with the live frame, numbered LIVE_BASE + steps so it never aliases a
 * recorded frame, and its tick holds the playhead — own properties on the client object that shadow its
 * methods, removed again on stop (showLive below). Every overlay, the posed skin and body picking
 * (PreviewClient.pickBody) then read the live frame as they read a recorded one.
 */
import { create } from 'zustand';
import { Raycaster, Vector2, Vector3 } from 'three';
import { getViewportHandle } from '../viewport/viewportHandle';
import { createLiveHost, type FromLive, type ToLive } from '../../../shared/preview/live';
import type { PreviewInput } from '../../../shared/preview/input';
import { notify } from '../state/editor';
import { useEditor } from '../state/store';
import { previewClient, type PreviewClient } from './client';
import { usePreview } from './previewStore';
import { previewSource, useSolver } from './solverState';

/** Live frames are numbered from here (recorded frames are far below). */
export const LIVE_BASE = 1_000_000_000;

export interface LiveState {
  on: boolean;
  /** Simulated seconds per real second over the last second (1 = real time). */
  realTime: number;
  /** Steps run since the start. */
  steps: number;
}

export const useLive = create<LiveState>()(() => ({ on: false, realTime: 1, steps: 0 }));

interface Port { post(msg: ToLive): void }
let port: Port | null = null;
let session = 0;
/** The newest live frame, and the recording frame the session started from. */
let view: { index: number; frame: Float64Array; aux: Float64Array } | null = null;
let startFrame = 0;
let unsubscribe: (() => void) | null = null;
let restartTimer: ReturnType<typeof setTimeout> | null = null;
/** The body the last live grab took (the test hook reports it). */
let lastGrabbed: string | null = null;

function startPort(): Port {
  if (typeof Worker !== 'undefined') {
    try {
      const w = new Worker(new URL('./liveWorker.ts', import.meta.url), { type: 'module' });
      w.onmessage = (e: MessageEvent<FromLive>) => receive(e.data);
      w.onerror = (e) => { notify('error', `Live simulate: the worker failed: ${e.message}`); stopLive(); };
      return { post: (m) => w.postMessage(m) };
    } catch { /* fall through to the main thread */ }
  }
  const host = createLiveHost((m) => queueMicrotask(() => receive(m)), (fn, ms) => setTimeout(fn, ms), { now: () => performance.now() });
  return { post: (m) => setTimeout(() => host.receive(structuredClone(m)), 0) };
}

type Reads = Pick<PreviewClient, 'frameIndex' | 'frame' | 'auxOf' | 'tick'>;
const READS: (keyof Reads)[] = ['frameIndex', 'frame', 'auxOf', 'tick'];

/** Make the client's frame reads answer with the live frame (on) or the recording again (off). */
function showLive(c: PreviewClient, on: boolean): void {
  const own = c as unknown as Partial<Reads>;
  if (!on) { for (const k of READS) delete own[k]; c.version++; return; }
  const proto = Object.getPrototypeOf(c) as Reads;
  own.frameIndex = () => view?.index ?? proto.frameIndex.call(c);
  own.frame = (f) => (view && f === view.index ? view.frame : proto.frame.call(c, f));
  own.auxOf = (f) => (view && f === view.index ? view.aux : proto.auxOf.call(c, f));
  own.tick = () => undefined; // the recording's playhead holds while live
}

function receive(m: FromLive): void {
  if (m.session !== session || !useLive.getState().on) return;
  const c = previewClient();
  switch (m.type) {
    case 'started': break;
    case 'frame': {
      const L = c.layout;
      // A frame of another layout (the recording's host has not reset for an edit yet) is not shown.
      if (!L || m.frame.length !== L.frameSize || m.aux.length !== L.aux.size) return;
      view = { index: LIVE_BASE + m.index - startFrame, frame: m.frame, aux: m.aux };
      c.version++;
      const steps = m.index - startFrame;
      if (steps % 15 === 0 || Math.abs(useLive.getState().realTime - m.realTime) > 0.05) useLive.setState({ steps, realTime: m.realTime });
      break;
    }
    case 'problem':
      notify('error', `Live simulate: ${m.message}`);
      stopLive();
      break;
  }
}

function sendStart(): void {
  const c = previewClient();
  const src = previewSource(useEditor.getState().document?.rig ?? null);
  // The rig closed, or the preview switched to the particle solver: Live simulate ends.
  if (!src || src.particles) { stopLive(); return; }
  session++;
  view = null;
  port ??= startPort();
  port.post({ type: 'start', session, rig: src.rig, clips: useEditor.getState().creature?.clips ?? [], inputs: usePreview.getState().inputs, frame: startFrame });
  c.version++;
}

/** Start Live simulate from the frame on screen (pauses the recording's playback). */
export function startLive(): boolean {
  if (useLive.getState().on) return true;
  const src = previewSource(useEditor.getState().document?.rig ?? null);
  if (!src) { notify('error', 'Live simulate: open a creature with a rig first'); return false; }
  if (src.particles) { notify('error', 'Live simulate runs the rigid solver: switch the preview to Rigid first'); return false; }
  const c = previewClient();
  c.setPlaying(false);
  startFrame = Math.max(0, c.frameIndex());
  useLive.setState({ on: true, realTime: 1, steps: 0 });
  showLive(c, true);
  sendStart();
  // An edit of the rig restarts the session with it (from the same recorded frame), as the recording does.
  let rig = useEditor.getState().document?.rig ?? null;
  const offSolver = useSolver.subscribe(() => stopLive()); // a solver switch or a particle scene opened
  const offEditor = useEditor.subscribe((s, prev) => {
    // Another creature: its recording starts over, and Live simulate stops.
    if (s.creature !== prev.creature) { stopLive(); return; }
    const next = s.document?.rig ?? null;
    if (next === rig) return;
    rig = next;
    if (restartTimer) clearTimeout(restartTimer);
    restartTimer = setTimeout(() => { restartTimer = null; if (useLive.getState().on) sendStart(); }, 80);
  });
  unsubscribe = () => { offSolver(); offEditor(); };
  notify('info', 'Live simulate: the physics runs at real time — grab and poke the creature; stop to return to the recording');
  return true;
}

/** Stop Live simulate: the viewport shows the recording again, at the frame it was on. */
export function stopLive(): void {
  if (!useLive.getState().on) return;
  port?.post({ type: 'stop' });
  session++;
  view = null;
  unsubscribe?.();
  unsubscribe = null;
  if (restartTimer) { clearTimeout(restartTimer); restartTimer = null; }
  useLive.setState({ on: false });
  showLive(previewClient(), false);
}

export const toggleLive = (): void => { if (useLive.getState().on) stopLive(); else startLive(); };

export const liveOn = (): boolean => useLive.getState().on;

/** Act on the live session now (the input's frame is ignored). */
export function liveInput(input: PreviewInput): void {
  if (!useLive.getState().on || !port) return;
  if (input.kind === 'grab') lastGrabbed = input.body;
  port.post({ type: 'input', session, input });
}

export interface LiveTestHook {
  on(): boolean;
  /** The shown live frame: steps since the start, and the grab spring (active, grabbed point, spring end) from its aux record. */
  frame(): { steps: number; grab: { active: boolean; point: number[]; target: number[] } } | null;
  realTime(): number;
  /** The body the last live grab took, or null. */
  grabbed(): string | null;
  /** The body under a page point on the shown frame (PreviewClient.pickBody along the camera's ray), or null. */
  bodyAt(x: number, y: number): string | null;
  /** The steering target the shown live frame records (world, m), or null. */
  target(): number[] | null;
  /** Page position of a world point (m) through the viewport's camera, or null without a viewport. */
  screenOf(x: number, y: number, z: number): { x: number; y: number } | null;
  /** The floor point (y = 0, world m) under a page point, or null (no viewport, or the ray misses the floor). */
  floorAt(x: number, y: number): number[] | null;
}

/** The camera's ray through a page point (world), or null without a viewport. */
function pageRay(x: number, y: number): Raycaster['ray'] | null {
  const vp = getViewportHandle();
  if (!vp) return null;
  const r = vp.gl.domElement.getBoundingClientRect();
  const ray = new Raycaster();
  ray.setFromCamera(new Vector2(((x - r.left) / r.width) * 2 - 1, -((y - r.top) / r.height) * 2 + 1), vp.camera);
  return ray.ray;
}

/** window.__marionetteLive in the test build (installed by testing/testHooks.ts). */
export function installLiveTestHook(): void {
  const hook: LiveTestHook = {
    on: () => useLive.getState().on,
    frame() {
      const L = previewClient().layout;
      if (!view || !L) return null;
      const g = L.aux.grab, a = view.aux;
      return { steps: view.index - LIVE_BASE, grab: { active: a[g] === 1, point: Array.from(a.subarray(g + 1, g + 4)), target: Array.from(a.subarray(g + 4, g + 7)) } };
    },
    realTime: () => useLive.getState().realTime,
    grabbed: () => lastGrabbed,
    bodyAt(x, y) {
      const ray = pageRay(x, y);
      if (!ray) return null;
      const { origin: o, direction: d } = ray;
      return previewClient().pickBody([o.x, o.y, o.z], [d.x, d.y, d.z], 1e3)?.body ?? null;
    },
    target() {
      const k = previewClient().layout?.aux.steering;
      if (!view || k === undefined || view.aux[k + 3] !== 1) return null;
      return Array.from(view.aux.subarray(k, k + 3));
    },
    screenOf(x, y, z) {
      const vp = getViewportHandle();
      if (!vp) return null;
      const r = vp.gl.domElement.getBoundingClientRect();
      const p = new Vector3(x, y, z).project(vp.camera);
      return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
    },
    floorAt(x, y) {
      const ray = pageRay(x, y);
      if (!ray) return null;
      const { origin: o, direction: d } = ray;
      if (!(d.y < -1e-6)) return null;
      const t = -o.y / d.y;
      return [o.x + t * d.x, 0, o.z + t * d.z];
    },
  };
  (window as unknown as { __marionetteLive: LiveTestHook }).__marionetteLive = hook;
}
