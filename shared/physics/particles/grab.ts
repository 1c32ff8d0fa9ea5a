/**
 * The mouse grab on a particle bone: a spring-damper from a point of the bone to a target the cursor
 * moves — the rigid preview's grab (shared/preview/engine.ts grabStep) on particles.
 *
 * The grabbed point is the point of the bone's axis nearest the clicked point, at parameter s ∈ [0, 1]
 * from head to tip (so it stays on the bone however the bone turns): p = (1 − s)·x_head + s·x_tip, with the
 * step velocity v_p = (1 − s)·v_head + s·v_tip, v = (x − x0)/dt. The force is the rigid grab's
 *   F = m·(ω²·(target − p) − 2ζω·v_p),  ω = 2π·frequency,  |F| ≤ maxWeights·m·9.81 N,
 * with m the bone's own mass (each particle's mass shared equally among the bones whose clusters hold
 * it). F is split between head and tip by the lever rule (1 − s, s), as the mouse impulse is (impulse.ts),
 * so the total force is F and the nearer end is pulled more; each end gets the acceleration F_i / m_i for
 * the next Verlet step (ParticleState.accel). Pinned particles do not move.
 *
 * The whole state is 9 numbers (GRAB_STATE), so a snapshot restores a grab in progress exactly.
 */
import { closestOnSegment } from '../collision/segments';
import type { BoneTable } from './bones';
import type { ParticleState } from './state';

export interface GrabSpring {
  /** Natural frequency (Hz). */
  frequency: number;
  /** Damping ratio. */
  damping: number;
  /** Force cap in multiples of the bone's weight. */
  maxWeights: number;
}

/** Layout of the grab state: active (0/1), bone, s, target xyz, frequency, damping, maxWeights. */
export const GRAB_STATE = 9;
const G_ACTIVE = 0, G_BONE = 1, G_S = 2, G_TARGET = 3, G_FREQ = 6, G_DAMP = 7, G_MAXW = 8;
const STANDARD_GRAVITY = 9.81;

export function startGrab(state: Float64Array, s: ParticleState, bones: BoneTable, b: number, point: readonly number[], spring: GrabSpring): void {
  const x = s.x, h = 3 * bones.head[b]!, t = 3 * bones.tip[b]!;
  state[G_ACTIVE] = 1; state[G_BONE] = b;
  state[G_S] = closestOnSegment(x[h]!, x[h + 1]!, x[h + 2]!, x[t]! - x[h]!, x[t + 1]! - x[h + 1]!, x[t + 2]! - x[h + 2]!, point[0]!, point[1]!, point[2]!);
  state[G_TARGET] = point[0]!; state[G_TARGET + 1] = point[1]!; state[G_TARGET + 2] = point[2]!;
  state[G_FREQ] = spring.frequency; state[G_DAMP] = spring.damping; state[G_MAXW] = spring.maxWeights;
}

export function moveGrabTarget(state: Float64Array, target: readonly number[]): void {
  if (state[G_ACTIVE] !== 1) return;
  state[G_TARGET] = target[0]!; state[G_TARGET + 1] = target[1]!; state[G_TARGET + 2] = target[2]!;
}

export const grabBone = (state: Float64Array): number => (state[G_ACTIVE] === 1 ? state[G_BONE]! : -1);

/** The grabbed point (world, m) into out[0..3) and the target into out[3..6); false when nothing is grabbed. */
export function readGrab(state: Float64Array, s: ParticleState, bones: BoneTable, out: Float64Array): boolean {
  if (state[G_ACTIVE] !== 1) return false;
  const b = state[G_BONE]!, sp = state[G_S]!, x = s.x, h = 3 * bones.head[b]!, t = 3 * bones.tip[b]!;
  for (let c = 0; c < 3; c++) { out[c] = (1 - sp) * x[h + c]! + sp * x[t + c]!; out[3 + c] = state[G_TARGET + c]!; }
  return true;
}

/** Add the spring's accelerations for the next step (call before integrate). */
export function applyGrab(state: Float64Array, s: ParticleState, bones: BoneTable, boneMass: Float64Array, dt: number): void {
  if (state[G_ACTIVE] !== 1) return;
  const b = state[G_BONE]!, sp = state[G_S]!, head = bones.head[b]!, tip = bones.tip[b]!, h = 3 * head, t = 3 * tip;
  const { x, x0 } = s, m = boneMass[b]!;
  const w = 2 * Math.PI * state[G_FREQ]!, c = 2 * state[G_DAMP]! * w;
  let fx = 0, fy = 0, fz = 0;
  for (let k = 0; k < 3; k++) {
    const p = (1 - sp) * x[h + k]! + sp * x[t + k]!;
    const v = ((1 - sp) * (x[h + k]! - x0[h + k]!) + sp * (x[t + k]! - x0[t + k]!)) / dt;
    const f = m * (w * w * (state[G_TARGET + k]! - p) - c * v);
    if (k === 0) fx = f; else if (k === 1) fy = f; else fz = f;
  }
  const cap = state[G_MAXW]! * m * STANDARD_GRAVITY, mag = Math.sqrt(fx * fx + fy * fy + fz * fz);
  if (mag > cap) { const k = cap / mag; fx *= k; fy *= k; fz *= k; }
  const a = s.accel;
  const wh = (1 - sp) * s.w[head]!, wt = sp * s.w[tip]!;
  a[h] += fx * wh; a[h + 1] += fy * wh; a[h + 2] += fz * wh;
  a[t] += fx * wt; a[t + 1] += fy * wt; a[t + 2] += fz * wt;
}
