/**
 * Rigid rotations of particle clusters about a pivot particle — the move every angular constraint makes.
 * Rotating a bone's cluster about its joint moves its particles along arcs, so the bone's length (every
 * distance inside the cluster) is unchanged: the fix for the paper's angular rule, which altered lengths.
 *
 * Rodrigues: r' = r·cosφ + (k × r)·sinφ + k·(k·r)·(1 − cosφ), k unit, φ in rad (right-hand rule about k).
 */
import type { ParticleState } from './state';

/** Rotate particles idx[from..to) of `s` about pivot point (px,py,pz), unit axis k, angle phi. */
export function rotateParticles(
  s: ParticleState, idx: Int32Array, from: number, to: number,
  px: number, py: number, pz: number, kx: number, ky: number, kz: number, phi: number,
): void {
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
 * Moment of inertia (kg·m²) of particles idx[from..to) about the line through p along unit k:
 * I = Σ mᵢ·|rᵢ − (rᵢ·k)k|². Infinity when one of them is pinned (that cluster cannot be turned by a
 * constraint, so the other side takes the whole correction).
 */
export function clusterInertia(
  s: ParticleState, idx: Int32Array, from: number, to: number,
  px: number, py: number, pz: number, kx: number, ky: number, kz: number,
): number {
  let I = 0;
  const x = s.x;
  for (let n = from; n < to; n++) {
    const i = idx[n]!, o = 3 * i;
    const rx = x[o]! - px, ry = x[o + 1]! - py, rz = x[o + 2]! - pz;
    const d = kx * rx + ky * ry + kz * rz;
    const r2 = rx * rx + ry * ry + rz * rz - d * d;
    if (s.w[i] === 0 && r2 > 1e-18) return Infinity;
    I += s.m[i]! * r2;
  }
  return I;
}
