/**
 * The preview's interaction API, for the authoring UI (poke, blast, grab, go limp, animation targets,
 * plots). Every interaction is an input stamped with the frame under the playhead and recorded on the
 * timeline, so scrubbing and re-simulation reproduce it exactly; the worker re-simulates from the
 * snapshot at or before that frame.
 *
 *   import * as preview from '../preview/previewApi';
 *   preview.applyImpulseAt('forearm', [0.2, 0.3, 0.5], [0, 0, 20]);     // N·s at a world point (m)
 *   preview.blast([0, 0, 0.3], 1.5, 40);                                // centre, radius m, N·s at the centre
 *   preview.grab('body', hit.point); preview.moveGrab(p); preview.releaseGrab();
 *   preview.setLimp('all', true);                                       // go limp now; false = power on
 *   preview.setAnimationClips(clips); preview.setMotorTargetSource(['elbow'], 'animation', 'wave');
 *   const rec = preview.frames(); rec.t; rec.series('elbow', 'torque'); preview.playhead();
 *   preview.pickBody(origin, direction);                                // body under a ray at the shown frame
 *
 * Units: metres, seconds, N·s for impulses, rad for angles, N·m for torques, J for energy.
 */
import { quatRotate, type Quat } from '../../../shared/math/quat';
import { headingYaw } from '../../../shared/gait/steering';
import { setMotor } from '../../../shared/authoring';
import type { AnimationClip } from '../../../shared/authoring/skeletonInput';
import type { RigMotor } from '../../../shared/rig';
import { BODY_STRIDE } from '../../../shared/runtime/trace';
import { edit } from '../state/editor';
import { previewClient } from './client';
import type { PreviewInput, Vec3Tuple } from './engine';
import { usePreview } from './previewStore';

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
  previewClient().addInput({ kind: 'impulse', frame: playhead(), body, point: v3(worldPoint, 'point'), impulse: v3(impulse, 'impulse') });
}

/** A radial blast: `strength` N·s at the centre, falling linearly to zero at `radius` m, on each body's centre of mass. */
export function blast(center: V3, radius: number, strength: number): void {
  if (!(radius > 0)) throw new Error(`blast radius must be > 0 m, got ${radius}`);
  if (!Number.isFinite(strength)) throw new Error(`blast strength must be a number (N·s), got ${strength}`);
  previewClient().addInput({ kind: 'blast', frame: playhead(), center: v3(center, 'center'), radius, strength });
}

/** Grab a body at a world point with a spring (GRAB_FREQUENCY Hz, critically damped) whose end is moved by moveGrab. */
export function grab(body: string, worldPoint: V3): void {
  requireBody(body);
  previewClient().addInput({ kind: 'grab', frame: playhead(), body, point: v3(worldPoint, 'point') });
}

/** Move the grab spring's end (world, m). Several moves within one frame keep only the last. */
export function moveGrab(target: V3): void {
  const c = previewClient(), f = playhead(), t = v3(target, 'target');
  const inputs = usePreview.getState().inputs;
  const last = inputs.at(-1);
  if (last?.kind === 'grabMove' && last.frame === f) c.setInputs([...inputs.slice(0, -1), { ...last, target: t }]);
  else c.addInput({ kind: 'grabMove', frame: f, target: t });
}

export function releaseGrab(): void {
  previewClient().addInput({ kind: 'release', frame: playhead() });
}

/**
 * Go limp (true) or power on (false) at the current frame, for some joints or 'all'. The bodies moved by
 * those joints take the velocity of their last two recorded transforms (seed 002), with no frame delay.
 */
export function setLimp(joints: readonly string[] | 'all', limp: boolean): void {
  const L = previewClient().layout;
  if (L && joints !== 'all') {
    const unknown = joints.filter((j) => !L.layout.joints.includes(j));
    if (unknown.length) throw new Error(`no joint named ${unknown.map((j) => `"${j}"`).join(', ')} in the previewed rig`);
  }
  previewClient().addInput({ kind: 'limp', frame: playhead(), joints: joints === 'all' ? 'all' : [...joints], limp });
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

export type BodyQuantity = 'p.x' | 'p.y' | 'p.z' | 'v.x' | 'v.y' | 'v.z' | 'w.x' | 'w.y' | 'w.z' | 'speed' | 'height' | 'heading' | 'headingError' | 'kineticEnergy';
export type JointQuantity = 'torque' | 'maxTorque' | 'saturated' | 'error' | 'angle' | 'target' | 'trackingError';
/** 'creature' (the whole rig): speed (root, horizontal m/s), headingError (rad to the steering target), kineticEnergy (J). */
export type CreatureQuantity = 'speed' | 'headingError' | 'kineticEnergy';

export interface RecordedSeries {
  /** Time (s) of each recorded frame. */
  t: Float64Array;
  /** One quantity over the recorded frames: a body, a joint, a controller ('phase') or 'creature'. */
  series(name: string, quantity: BodyQuantity | JointQuantity | CreatureQuantity | 'phase'): Float64Array;
}

/** The recording as time series for plots (copies; call again after it grows). */
export function frames(): RecordedSeries {
  const c = previewClient();
  const L = c.layout, n = c.count;
  const t = new Float64Array(n);
  if (!L) return { t, series: () => new Float64Array(0) };
  const fs = L.frameSize, data = c.frames, aux = c.aux, as = L.aux.size;
  for (let i = 0; i < n; i++) t[i] = data[i * fs]!;
  const col = (offset: number) => { const out = new Float64Array(n); for (let i = 0; i < n; i++) out[i] = data[i * fs + offset]!; return out; };
  const root = L.rig.controllers[0]?.root ?? L.layout.bodies[0]!;

  const bodySeries = (name: string, q: BodyQuantity): Float64Array => {
    const o = c.bodyOffset(name);
    const out = new Float64Array(n);
    const comp = { x: 0, y: 1, z: 2 } as const;
    const m = /^([pvw])\.([xyz])$/.exec(q);
    if (m) return col(o + { p: 0, v: 7, w: 10 }[m[1] as 'p' | 'v' | 'w'] + comp[m[2] as 'x' | 'y' | 'z']);
    if (q === 'height') return col(o + 1);
    for (let i = 0; i < n; i++) {
      const b = i * fs + o;
      const rot: Quat = [data[b + 3]!, data[b + 4]!, data[b + 5]!, data[b + 6]!];
      if (q === 'speed') out[i] = Math.hypot(data[b + 7]!, data[b + 8]!, data[b + 9]!);
      else if (q === 'heading') out[i] = headingYaw(rot);
      else if (q === 'headingError') {
        const a = i * as;
        if (aux[a + 3] !== 1) { out[i] = NaN; continue; }
        const want = Math.atan2(aux[a]! - data[b]!, aux[a + 2]! - data[b + 2]!);
        out[i] = wrapAngle(want - headingYaw(rot));
      } else if (q === 'kineticEnergy') out[i] = kinetic(c.massOf(name), data, b, rot);
    }
    return out;
  };

  const jointSeries = (name: string, q: JointQuantity): Float64Array => {
    const o = c.jointOffset(name), j = L.layout.joints.indexOf(name);
    if (q === 'error') return col(o);
    if (q === 'torque') return col(o + 1);
    if (q === 'maxTorque') return col(o + 2);
    if (q === 'saturated') return col(o + 3);
    const k = { angle: 0, target: 1, trackingError: 2 }[q];
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = aux[i * as + L.aux.jointState + 3 * j + k]!;
    return out;
  };

  return {
    t,
    series(name, quantity) {
      if (name === 'creature') {
        if (quantity === 'kineticEnergy') {
          const out = new Float64Array(n);
          for (const b of L.layout.bodies) { const s = bodySeries(b, 'kineticEnergy'); for (let i = 0; i < n; i++) out[i] += s[i]!; }
          return out;
        }
        if (quantity === 'speed') {
          const o = c.bodyOffset(root), out = new Float64Array(n);
          for (let i = 0; i < n; i++) out[i] = Math.hypot(data[i * fs + o + 7]!, data[i * fs + o + 9]!);
          return out;
        }
        if (quantity === 'headingError') return bodySeries(root, 'headingError');
        throw new Error(`creature series: unknown quantity "${quantity}" (speed, headingError, kineticEnergy)`);
      }
      if (L.layout.bodies.includes(name)) return bodySeries(name, quantity as BodyQuantity);
      if (L.layout.joints.includes(name)) return jointSeries(name, quantity as JointQuantity);
      const k = L.layout.controllers.indexOf(name);
      if (k >= 0 && quantity === 'phase') return col(1 + L.layout.bodies.length * BODY_STRIDE + L.layout.joints.length * 4 + k);
      throw new Error(`no body, joint or controller named "${name}" with quantity "${quantity}" in the previewed rig`);
    },
  };
}

const wrapAngle = (a: number): number => Math.atan2(Math.sin(a), Math.cos(a));

/** ½·m·|v|² + ½·ωᵦᵀ·I·ωᵦ with ω taken into body axes (I is about the centroid, in body axes). Body origin
 *  velocity is used for v; the recorded velocity is the centre of mass's (the solver integrates it). */
function kinetic(mp: { mass: number; inertia: readonly number[] } | null, d: Float64Array, b: number, rot: Quat): number {
  if (!mp) return NaN;
  const v2 = d[b + 7]! ** 2 + d[b + 8]! ** 2 + d[b + 9]! ** 2;
  const inv: Quat = [-rot[0], -rot[1], -rot[2], rot[3]];
  const w = quatRotate(inv, [d[b + 10]!, d[b + 11]!, d[b + 12]!]);
  const I = mp.inertia;
  const Iw = [I[0]! * w[0] + I[1]! * w[1] + I[2]! * w[2], I[3]! * w[0] + I[4]! * w[1] + I[5]! * w[2], I[6]! * w[0] + I[7]! * w[1] + I[8]! * w[2]];
  return 0.5 * mp.mass * v2 + 0.5 * (w[0] * Iw[0]! + w[1] * Iw[1]! + w[2] * Iw[2]!);
}

/** Subscribe to recording changes (frames added or dropped, playhead moved at UI rate). Returns the unsubscribe. */
export function onChange(listener: () => void): () => void {
  return usePreview.subscribe((s, p) => { if (s.recorded !== p.recorded || s.playhead !== p.playhead) listener(); });
}
