/**
 * The mouse impulse (paper §3.5, eqs. 10–11): a click at point u on a bone splits the impulse J between the
 * bone's two particles by distance.
 *
 * The paper gives joint 1 the share |j1 − u| / (|j1 − u| + |j2 − u|) — the FARTHER particle gets more, so a
 * click right next to j1 pushes j2. That is backwards. For two equal end masses m joined by a rod, an
 * impulse J ⊥ the rod at fraction s from j1 gives Δv_cm = J/2m and Δω = J(s − ½)L/(mL²/2), hence
 * Δv1 = (1 − s)·J/m and Δv2 = s·J/m exactly: the lever rule, the NEARER particle gets more. We use it:
 *   share1 = 1 − s = |j2 − u| / (|j1 − u| + |j2 − u|) on the segment, share2 = s, with s the parameter of
 *   the point of the axis closest to u (so a click on the capsule surface projects onto the axis).
 * The shares sum to 1, so the momentum given to the creature is exactly J.
 *
 * A click off the axis also has a moment about the bone's axis, τ = ((u − c) × J)·e (c the axis point),
 * which a bone with an orientation particle receives: the orientation particle (at distance r_o from the
 * axis) gets J_o = τ / r_o along e × side, and the two ends get −J_o split at the orientation particle's
 * own axial position, so the total momentum stays J and the axial angular impulse is τ.
 *
 * Verlet has no velocity variable: an impulse is Δv = J·w applied by moving the previous position,
 * x0 −= Δv·dt.
 */
import { closestOnSegment } from '../collision/segments';
import type { BoneTable } from './bones';
import type { ParticleState } from './state';

/** Give particle i the impulse (jx, jy, jz) N·s. Pinned particles (w = 0) absorb it. */
export function applyParticleImpulse(s: ParticleState, i: number, jx: number, jy: number, jz: number, dt: number): void {
  const k = s.w[i]! * dt, o = 3 * i;
  s.x0[o] -= jx * k; s.x0[o + 1] -= jy * k; s.x0[o + 2] -= jz * k;
}

/** Shares of an impulse at point u on bone b: [head, tip] (sum 1; the nearer end gets more). */
export function impulseShares(s: ParticleState, bones: BoneTable, b: number, ux: number, uy: number, uz: number): [number, number] {
  const x = s.x, h = 3 * bones.head[b]!, t = 3 * bones.tip[b]!;
  const sp = closestOnSegment(x[h]!, x[h + 1]!, x[h + 2]!, x[t]! - x[h]!, x[t + 1]! - x[h + 1]!, x[t + 2]! - x[h + 2]!, ux, uy, uz);
  return [1 - sp, sp];
}

export function applyBoneImpulse(
  s: ParticleState, bones: BoneTable, b: number, ux: number, uy: number, uz: number, jx: number, jy: number, jz: number, dt: number,
): void {
  const x = s.x, head = bones.head[b]!, tip = bones.tip[b]!, h = 3 * head, t = 3 * tip;
  const ex = x[t]! - x[h]!, ey = x[t + 1]! - x[h + 1]!, ez = x[t + 2]! - x[h + 2]!;
  const sp = closestOnSegment(x[h]!, x[h + 1]!, x[h + 2]!, ex, ey, ez, ux, uy, uz);
  let hx = (1 - sp) * jx, hy = (1 - sp) * jy, hz = (1 - sp) * jz;
  let tx = sp * jx, ty = sp * jy, tz = sp * jz;
  const f = bones.frame[b]!;
  const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
  if (f >= 0 && el > 1e-12) {
    const nx = ex / el, ny = ey / el, nz = ez / el;
    // Axial moment of J about the axis point c.
    const ax = ux - (x[h]! + sp * ex), ay = uy - (x[h + 1]! + sp * ey), az = uz - (x[h + 2]! + sp * ez);
    const tau = nx * (ay * jz - az * jy) + ny * (az * jx - ax * jz) + nz * (ax * jy - ay * jx);
    const fo = 3 * f;
    const rx0 = x[fo]! - x[h]!, ry0 = x[fo + 1]! - x[h + 1]!, rz0 = x[fo + 2]! - x[h + 2]!;
    const along = rx0 * nx + ry0 * ny + rz0 * nz;
    const rx = rx0 - along * nx, ry = ry0 - along * ny, rz = rz0 - along * nz;
    const r2 = rx * rx + ry * ry + rz * rz;
    if (tau !== 0 && r2 > 1e-18) {
      // J_o = τ/r_o along e × r̂: (e × r)·τ / r².
      const ox = (ny * rz - nz * ry) * tau / r2, oy = (nz * rx - nx * rz) * tau / r2, oz = (nx * ry - ny * rx) * tau / r2;
      applyParticleImpulse(s, f, ox, oy, oz, dt);
      const so = Math.min(1, Math.max(0, along / el)); // orientation particle's axial fraction
      hx -= (1 - so) * ox; hy -= (1 - so) * oy; hz -= (1 - so) * oz;
      tx -= so * ox; ty -= so * oy; tz -= so * oz;
    }
  }
  applyParticleImpulse(s, head, hx, hy, hz, dt);
  applyParticleImpulse(s, tip, tx, ty, tz, dt);
}
