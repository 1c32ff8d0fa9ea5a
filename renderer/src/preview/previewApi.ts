/**
 * The preview's interaction API, for the authoring UI (poke, blast, grab, go limp, animation targets,
 * plots). Every interaction is an input stamped with the frame under the playhead and recorded on the
 * timeline, so scrubbing and re-simulation reproduce it exactly; the worker re-simulates from the
 * snapshot at or before that frame. Under Live simulate (live.ts) they act on the live session at once
 * instead, and nothing goes on the timeline.
 *
 *   import * as preview from '../preview/previewApi';
 *   preview.applyImpulseAt('forearm', [0.2, 0.3, 0.5], [0, 0, 20]);     // N·s at a world point (m)
 *   preview.blast([0, 0, 0.3], 1.5, 40);                                // centre, radius m, N·s at the centre
 *   preview.grab('body', hit.point); preview.moveGrab(p); preview.releaseGrab();  // one drag = one input
 *   preview.setLimp('all', true);                                       // go limp now; false = power on
 *   preview.setAnimationClips(clips); preview.setMotorTargetSource(['elbow'], 'animation', 'wave');
 *   const rec = preview.frames(); rec.t; rec.series('elbow', 'torque'); preview.playhead();
 *   preview.pickBody(origin, direction);                                // body under a ray at the shown frame
 *
 * Units: metres, seconds, N·s for impulses, rad for angles, N·m for torques, J for energy.
 */
import { setMotor } from '../../../shared/authoring';
import type { AnimationClip } from '../../../shared/authoring/skeletonInput';
import type { RigMotor } from '../../../shared/rig';
import { edit } from '../state/editor';
import { previewClient } from './client';
import type { PreviewInput, Vec3Tuple } from '../../../shared/preview/engine';
import { extendGrab, releaseGrabAt, type GrabInput } from '../../../shared/preview/input';
import { usePreview } from './previewStore';
import { liveInput, liveOn } from './live';
import { recordedSeries, type RecordedSeries } from '../../../shared/preview/series';

type V3 = readonly [number, number, number] | readonly number[];
const v3 = (v: V3, what: string): Vec3Tuple => {
  if (v.length !== 3 || !v.every(Number.isFinite)) throw new Error(`${what}: expected 3 finite numbers, got ${JSON.stringify(v)}`);
  return [v[0]!, v[1]!, v[2]!];
};

/** The frame interactions act on: the one on screen (0 before anything is recorded). */
export const playhead = (): number => Math.max(0, previewClient().frameIndex());

/** Go to a frame (e.g. a click in a plot). */
export const seek = (frame: number): void => previewClient().seek(frame);

function requireBody(body: string): void {
  const L = previewClient().layout;
  if (L && !L.layout.bodies.includes(body)) throw new Error(`no body named "${body}" in the previewed rig (bodies: ${L.layout.bodies.join(', ')})`);
}

/** An impulse (N·s, world) on a body at a world point, at the current frame. */
export function applyImpulseAt(body: string, worldPoint: V3, impulse: V3): void {
  requireBody(body);
  const input: PreviewInput = { kind: 'impulse', frame: playhead(), body, point: v3(worldPoint, 'point'), impulse: v3(impulse, 'impulse') };
  if (liveOn()) liveInput(input); else previewClient().addInput(input);
}

/** A radial blast: `strength` N·s at the centre, falling linearly to zero at `radius` m, on each body's centre of mass. */
export function blast(center: V3, radius: number, strength: number): void {
  if (!(radius > 0)) throw new Error(`blast radius must be > 0 m, got ${radius}`);
  if (!Number.isFinite(strength)) throw new Error(`blast strength must be a number (N·s), got ${strength}`);
  const input: PreviewInput = { kind: 'blast', frame: playhead(), center: v3(center, 'center'), radius, strength };
  if (liveOn()) liveInput(input); else previewClient().addInput(input);
}

/**
 * One drag of the grab tool is one input on the timeline: a `grab` carrying the path of its spring's end
 * (input.ts). grab() stamps it at the frame shown; moveGrab() adds a key at the frame shown (several moves
 * within one frame keep only the last); releaseGrab() ends it there. A grab while paused plays the preview
 * while the mouse is down (the spring acts in real time, as the user drags) and pauses again on release.
 */
let drag: { input: GrabInput; startedPlayback: boolean } | null = null;
/** A grab of the live session is held (Live simulate). */
let liveGrab = false;

/** Put the drag's input back on the timeline changed (false if it is gone: the inputs were cleared). */
function updateDrag(next: GrabInput): boolean {
  const c = previewClient(), inputs = usePreview.getState().inputs;
  const k = drag ? inputs.indexOf(drag.input) : -1;
  if (!drag || k < 0) { drag = null; return false; }
  drag.input = next;
  c.setInputs(inputs.map((x, i) => (i === k ? next : x)));
  return true;
}

/** Grab a body at a world point with a spring (GRAB_FREQUENCY Hz, critically damped) whose end is moved by moveGrab. */
export function grab(body: string, worldPoint: V3): void {
  requireBody(body);
  // Live simulate: the spring acts on the running session at once (nothing goes on the timeline).
  if (liveOn()) { liveGrab = true; liveInput({ kind: 'grab', frame: 0, body, point: v3(worldPoint, 'point') }); return; }
  const c = previewClient();
  if (drag) releaseGrab();
  const input: GrabInput = { kind: 'grab', frame: playhead(), body, point: v3(worldPoint, 'point'), path: [] };
  c.addInput(input);
  const playing = usePreview.getState().playing;
  drag = { input, startedPlayback: !playing };
  if (!playing) c.setPlaying(true);
}

/** Move the grab spring's end (world, m), from the frame shown on. */
export function moveGrab(target: V3): void {
  const t = v3(target, 'target');
  if (liveOn()) { liveInput({ kind: 'grabMove', frame: 0, target: t }); return; }
  if (drag && updateDrag(extendGrab(drag.input, playhead(), t))) return;
  // No drag of ours (a script's grab input, or the inputs were cleared mid-drag): a separate key.
  const c = previewClient(), f = playhead(), inputs = usePreview.getState().inputs, last = inputs.at(-1);
  if (last?.kind === 'grabMove' && last.frame === f) c.setInputs([...inputs.slice(0, -1), { ...last, target: t }]);
  else c.addInput({ kind: 'grabMove', frame: f, target: t });
}

/** Let go at the frame shown; a grab that started the playback pauses it again. */
export function releaseGrab(): void {
  if (liveOn() || liveGrab) { liveGrab = false; liveInput({ kind: 'release', frame: 0 }); if (!drag) return; }
  const d = drag;
  if (!d) { previewClient().addInput({ kind: 'release', frame: playhead() }); return; }
  updateDrag(releaseGrabAt(d.input, playhead()));
  drag = null;
  if (d.startedPlayback) previewClient().setPlaying(false);
}

/** Whether a drag of the grab tool is in progress. */
export const grabbing = (): boolean => drag !== null || liveGrab;

/**
 * Go limp (true) or power on (false) at the current frame, for some joints or 'all'. The bodies moved by
 * those joints take the velocity of their last two recorded transforms (seed 002), with no frame delay.
 */
export function setLimp(joints: readonly string[] | 'all', limp: boolean): void {
  const L = previewClient().layout;
  // Under particles the layout has no joints: the particle engine maps joint names to bones itself.
  if (L && !L.particles && joints !== 'all') {
    const unknown = joints.filter((j) => !L.layout.joints.includes(j));
    if (unknown.length) throw new Error(`no joint named ${unknown.map((j) => `"${j}"`).join(', ')} in the previewed rig`);
  }
  const input: PreviewInput = { kind: 'limp', frame: playhead(), joints: joints === 'all' ? 'all' : [...joints], limp };
  if (liveOn()) liveInput(input); else previewClient().addInput(input);
}

/** Clips the worker samples for joints whose motor target source is "animation" (matched by name). */
export function setAnimationClips(clips: readonly AnimationClip[]): void {
  previewClient().setClips([...clips]);
}

/**
 * Where these joints' motor targets come from (a document edit, one undo step): 'animation' (a clip by
 * name, followed under the torque limits — animationTargets each step), 'controller', 'rest'.
 */
export function setMotorTargetSource(joints: readonly string[], source: RigMotor['target']['source'], clip?: string): boolean {
  return edit(`Motor target: ${source}`, (doc) => {
    let rig = doc.rig;
    for (const j of joints) {
      const r = setMotor(rig, j, { target: { source, ...(clip ? { clip } : {}) } as RigMotor['target'] });
      if (!r.ok) throw new Error(`${r.field}: ${r.message}`);
      rig = r.rig;
    }
    return rig === doc.rig ? doc : { ...doc, rig };
  });
}

/** Remove every input (or those of a kind) from the timeline. */
export function clearInputs(kind?: PreviewInput['kind']): void {
  const c = previewClient();
  c.setInputs(kind ? usePreview.getState().inputs.filter((i) => i.kind !== kind) : []);
}

/** The body whose shapes a world ray hits first at the shown frame, with the hit point. */
export function pickBody(origin: V3, direction: V3, maxDistance = 100): { body: string; point: Vec3Tuple; distance: number } | null {
  const c = previewClient();
  return c.pickBody(v3(origin, 'origin'), v3(direction, 'direction'), maxDistance);
}

export type { BodyQuantity, JointQuantity, CreatureQuantity, RecordedSeries } from '../../../shared/preview/series';

/** The recording as time series for plots (copies; call again after it grows). */
export function frames(): RecordedSeries {
  const c = previewClient();
  const L = c.layout;
  // Under the particle solver there are no bodies, joints or controllers to plot.
  if (!L || L.particles) return { t: new Float64Array(0), series: () => new Float64Array(0) };
  return recordedSeries({
    layout: L.layout, frameSize: L.frameSize, aux: L.aux, frames: c.frames, auxData: c.aux, count: c.count,
    root: L.rig.controllers[0]?.root ?? L.layout.bodies[0]!,
    massOf: (body) => c.massOf(body),
  });
}

/** Subscribe to recording changes (frames added or dropped, playhead moved at UI rate). Returns the unsubscribe. */
export function onChange(listener: () => void): () => void {
  return usePreview.subscribe((s, p) => { if (s.recorded !== p.recorded || s.playhead !== p.playhead) listener(); });
}
