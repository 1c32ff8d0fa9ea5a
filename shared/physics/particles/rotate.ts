/**
 * Rigid rotations of particle clusters about a point — the move every angular constraint makes. Rotating a
 * bone's cluster about its joint moves its particles along arcs, so the bone's length (every distance
 * inside the cluster) is unchanged: the fix for the paper's angular rule, which altered lengths.
 *
 * Rodrigues: r' = r·cosφ + (k × r)·sinφ + k·(k·r)·(1 − cosφ), k unit, φ in rad (right-hand rule about k).
 *
 * The turn is passed in a Float64Array R — R[0..3) centre, R[3..6) unit axis, R[6] angle — rather than as
 * number arguments: V8 boxes doubles passed to (or returned from) a call it does not inline, and these run
 * dozens of times per relaxation iteration.
 */
import type { ParticleState } from './state';

/** Rotate particles idx[from..to) of `s` by R (centre, axis, angle). */
export function rotateParticles(s: ParticleState, idx: Int32Array, from: number, to: number, R: Float64Array): void {
  const px = R[0]!, py = R[1]!, pz = R[2]!, kx = R[3]!, ky = R[4]!, kz = R[5]!, phi = R[6]!;
  const c = Math.cos(phi), sn = Math.sin(phi), oc = 1 - c;
  const x = s.x;
  for (let n = from; n < to; n++) {
    const o = 3 * idx[n]!;
    const rx = x[o]! - px, ry = x[o + 1]! - py, rz = x[o + 2]! - pz;
    const kr = (kx * rx + ky * ry + kz * rz) * oc;
    x[o] = px + rx * c + (ky * rz - kz * ry) * sn + kx * kr;
    x[o + 1] = py + ry * c + (kz * rx - kx * rz) * sn + ky * kr;
    x[o + 2] = pz + rz * c + (kx * ry - ky * rx) * sn + kz * kr;
  }
}

/**
 * Moment of inertia (kg·m²) of particles idx[from..to) about the line through R[0..3) along R[3..6):
 * I = Σ mᵢ·|rᵢ − (rᵢ·k)k|², written to R[7]. Infinity when one of them is pinned off the line (that
 * cluster cannot be turned by a constraint, so the other side takes the whole correction).
 */
export function clusterInertia(s: ParticleState, idx: Int32Array, from: number, to: number, R: Float64Array): void {
  const px = R[0]!, py = R[1]!, pz = R[2]!, kx = R[3]!, ky = R[4]!, kz = R[5]!;
  let I = 0;
  const x = s.x;
  for (let n = from; n < to; n++) {
    const i = idx[n]!, o = 3 * i;
    const rx = x[o]! - px, ry = x[o + 1]! - py, rz = x[o + 2]! - pz;
    const d = kx * rx + ky * ry + kz * rz;
    const r2 = rx * rx + ry * ry + rz * rz - d * d;
    if (s.w[i] === 0 && r2 > 1e-18) { I = Infinity; break; }
    I += s.m[i]! * r2;
  }
  R[7] = I;
}
