/**
 * The preview's recording as time series for the plots: a pure read of the flat frames (trace.ts "flat
 * frames") and the engine's aux records (engine.ts auxLayout). The client's mirror (previewApi.frames())
 * and the headless engine in tests read through the same function.
 *
 * Names are looked up by quantity, not by name first: the generator names a joint after its child body
 * (body "shin_l", joint "shin_l"), so `series('shin_l', 'torque')` must reach the joint even though a body
 * of that name exists.
 *
 * Joint angle, target and tracking error (rad): a hinge's angle about its axis and the motor's target
 * angle (rest pose: the rest angle, ≈ 0 for an authored rig); a ball joint's rotation angle |θ| of frame B
 * from frame A and its target's rotation angle (magnitudes, ≥ 0 — a 3-D rotation has no single signed
 * angle), and the angle between current and target rotation.
 */
import { quatRotate, type Quat } from '../math/quat';
import { headingYaw } from '../gait/steering';
import { BODY_STRIDE, JOINT_STRIDE, type FrameLayout } from '../runtime/trace';
import type { AuxLayout } from './engine';

export type BodyQuantity = 'p.x' | 'p.y' | 'p.z' | 'v.x' | 'v.y' | 'v.z' | 'w.x' | 'w.y' | 'w.z' | 'speed' | 'height' | 'heading' | 'headingError' | 'kineticEnergy';
export type JointQuantity = 'torque' | 'maxTorque' | 'saturated' | 'error' | 'angle' | 'target' | 'trackingError';
/** 'creature' (the whole rig): speed (root, horizontal m/s), headingError (rad to the steering target), kineticEnergy (J). */
export type CreatureQuantity = 'speed' | 'headingError' | 'kineticEnergy';
export type SeriesQuantity = BodyQuantity | JointQuantity | CreatureQuantity | 'phase';

export interface RecordedSeries {
  /** Time (s) of each recorded frame. */
  t: Float64Array;
  /** One quantity over the recorded frames: a body, a joint, a controller ('phase') or 'creature'. */
  series(name: string, quantity: SeriesQuantity): Float64Array;
}

export const JOINT_QUANTITIES: readonly JointQuantity[] = ['torque', 'maxTorque', 'saturated', 'error', 'angle', 'target', 'trackingError'];
export const BODY_QUANTITIES: readonly BodyQuantity[] = ['p.x', 'p.y', 'p.z', 'v.x', 'v.y', 'v.z', 'w.x', 'w.y', 'w.z', 'speed', 'height', 'heading', 'headingError', 'kineticEnergy'];

/** What the series are read from: `count` frames of `frameSize` numbers and their aux records. */
export interface SeriesSource {
  layout: FrameLayout;
  frameSize: number;
  aux: AuxLayout;
  frames: Float64Array;
  auxData: Float64Array;
  count: number;
  /** The creature's root body (speed, heading): the first controller's root, else the first body. */
  root: string;
  /** Mass (kg) and inertia about the centroid in body axes (row-major 3×3), or null if unknown. */
  massOf(body: string): { mass: number; inertia: readonly number[] } | null;
}

export function recordedSeries(src: SeriesSource): RecordedSeries {
  const { layout: L, frameSize: fs, frames: data, auxData: aux, count: n } = src;
  const as = src.aux.size;
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) t[i] = data[i * fs]!;
  const col = (offset: number) => { const out = new Float64Array(n); for (let i = 0; i < n; i++) out[i] = data[i * fs + offset]!; return out; };
  const bodyOffset = (name: string) => 1 + L.bodies.indexOf(name) * BODY_STRIDE;

  const bodySeries = (name: string, q: BodyQuantity): Float64Array => {
    const o = bodyOffset(name);
    const out = new Float64Array(n);
    const comp = { x: 0, y: 1, z: 2 } as const;
    const m = /^([pvw])\.([xyz])$/.exec(q);
    if (m) return col(o + { p: 0, v: 7, w: 10 }[m[1] as 'p' | 'v' | 'w'] + comp[m[2] as 'x' | 'y' | 'z']);
    if (q === 'height') return col(o + 1);
    const mp = q === 'kineticEnergy' ? src.massOf(name) : null;
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
      } else out[i] = kinetic(mp, data, b, rot);
    }
    return out;
  };

  const jointSeries = (name: string, q: JointQuantity): Float64Array => {
    const j = L.joints.indexOf(name), o = 1 + L.bodies.length * BODY_STRIDE + j * JOINT_STRIDE;
    if (q === 'error') return col(o);
    if (q === 'torque') return col(o + 1);
    if (q === 'maxTorque') return col(o + 2);
    if (q === 'saturated') return col(o + 3);
    const k = { angle: 0, target: 1, trackingError: 2 }[q];
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = aux[i * as + src.aux.jointState + 3 * j + k]!;
    return out;
  };

  const isJointQuantity = (q: string): q is JointQuantity => (JOINT_QUANTITIES as readonly string[]).includes(q);
  const isBodyQuantity = (q: string): q is BodyQuantity => (BODY_QUANTITIES as readonly string[]).includes(q);

  return {
    t,
    series(name, quantity) {
      if (name === 'creature') {
        if (quantity === 'kineticEnergy') {
          const out = new Float64Array(n);
          for (const b of L.bodies) { const s = bodySeries(b, 'kineticEnergy'); for (let i = 0; i < n; i++) out[i] += s[i]!; }
          return out;
        }
        if (quantity === 'speed') {
          const o = bodyOffset(src.root), out = new Float64Array(n);
          for (let i = 0; i < n; i++) out[i] = Math.hypot(data[i * fs + o + 7]!, data[i * fs + o + 9]!);
          return out;
        }
        if (quantity === 'headingError') return bodySeries(src.root, 'headingError');
        throw new Error(`creature series: unknown quantity "${quantity}" (speed, headingError, kineticEnergy)`);
      }
      if (isJointQuantity(quantity) && L.joints.includes(name)) return jointSeries(name, quantity);
      if (isBodyQuantity(quantity) && L.bodies.includes(name)) return bodySeries(name, quantity);
      const k = L.controllers.indexOf(name);
      if (k >= 0 && quantity === 'phase') return col(1 + L.bodies.length * BODY_STRIDE + L.joints.length * JOINT_STRIDE + k);
      throw new Error(`no body, joint or controller named "${name}" with quantity "${quantity}" in the previewed rig (joints: ${JOINT_QUANTITIES.join(', ')}; bodies: ${BODY_QUANTITIES.join(', ')}; controllers: phase)`);
    },
  };
}

const wrapAngle = (a: number): number => Math.atan2(Math.sin(a), Math.cos(a));

/** ½·m·|v|² + ½·ωᵦᵀ·I·ωᵦ with ω taken into body axes (I is about the centroid, in body axes). The
 *  recorded velocity is the centre of mass's (the solver integrates it). */
function kinetic(mp: { mass: number; inertia: readonly number[] } | null, d: Float64Array, b: number, rot: Quat): number {
  if (!mp) return NaN;
  const v2 = d[b + 7]! ** 2 + d[b + 8]! ** 2 + d[b + 9]! ** 2;
  const inv: Quat = [-rot[0], -rot[1], -rot[2], rot[3]];
  const w = quatRotate(inv, [d[b + 10]!, d[b + 11]!, d[b + 12]!]);
  const I = mp.inertia;
  const Iw = [I[0]! * w[0] + I[1]! * w[1] + I[2]! * w[2], I[3]! * w[0] + I[4]! * w[1] + I[5]! * w[2], I[6]! * w[0] + I[7]! * w[1] + I[8]! * w[2]];
  return 0.5 * mp.mass * v2 + 0.5 * (w[0] * Iw[0]! + w[1] * Iw[1]! + w[2] * Iw[2]!);
}
