/**
 * Collisions that replace the paper's minimum-distance workaround (§6.1): bones are capsules (segment
 * head→tip, radius r) and are projected out of each other and out of the floor, with Coulomb friction.
 *
 * Bone–bone (position-based, momentum-conserving): the closest points c1 = lerp(h1, t1, s),
 * c2 = lerp(h2, t2, t) (Ericson's segment–segment, shared with the rigid collision module) are pushed apart
 * along n = (c1 − c2)/|c1 − c2| by the penetration p = r1 + r2 − |c1 − c2|. The contact point's position is
 * linear in the four particles with gradients (1 − s)n, s·n, −(1 − t)n, −t·n, so the projection is
 *   λ = p / (w_h1(1 − s)² + w_t1 s² + w_h2(1 − t)² + w_t2 t²),   Δx_i = λ·w_i·∇_i,
 * which closes p exactly (to first order in the motion) and sums to zero momentum.
 * Friction: the relative tangential motion of the contact points during this step, Δ_t, is undone through
 * the same weights — fully while |Δ_t| ≤ μ·p (static), else by the fraction μ·p/|Δ_t| (kinetic) — the
 * position-level Coulomb law of unified particle physics (Macklin et al. 2014).
 * Floor: a capsule's lowest point is one of its end spheres, so each particle of radius r keeps
 * y ≥ floor + r; its horizontal step motion is limited the same way by μ·p.
 */
import { closestSegmentSegment, segScratch } from '../collision/segments';
import type { BoneTable } from './bones';
import { P_FLOOR, P_FLOOR_MU, P_FRICTION, type ParticleState } from './state';

export class BonePairs {
  readonly count: number;
  readonly a: Int32Array;
  readonly b: Int32Array;
  constructor(pairs: readonly (readonly [number, number])[]) {
    this.count = pairs.length;
    this.a = Int32Array.from(pairs.map((p) => p[0]));
    this.b = Int32Array.from(pairs.map((p) => p[1]));
  }
}

/** Bone pairs that may collide: both collide-enabled, sharing no particle (bones that meet at a joint
 *  overlap there by construction; their relative motion is the joint limits' job) and not already
 *  overlapping in the initial pose (the rule of Unreal's physics asset: a thigh that starts inside the
 *  torso capsule next to the hip would otherwise be shot out on the first step). */
export function collidingPairs(bones: BoneTable, s: ParticleState): BonePairs {
  const pairs: [number, number][] = [];
  const set = (b: number) => new Set(Array.from(bones.members.subarray(bones.start[b]!, bones.end[b]!)));
  const sets = Array.from({ length: bones.count }, (_, b) => set(b));
  for (let i = 0; i < bones.count; i++) {
    if (!bones.collide[i]) continue;
    for (let j = i + 1; j < bones.count; j++) {
      if (!bones.collide[j]) continue;
      let shared = false;
      for (const p of sets[i]!) if (sets[j]!.has(p)) { shared = true; break; }
      if (!shared && pairDistance(s, bones, i, j) >= bones.radius[i]! + bones.radius[j]!) pairs.push([i, j]);
    }
  }
  return new BonePairs(pairs);
}

/** Deepest bone–bone penetration (m) at the current positions, 0 when none overlap — for tests and stats. */
export function maxPenetration(s: ParticleState, bones: BoneTable, pairs: BonePairs): number {
  let worst = 0;
  for (let k = 0; k < pairs.count; k++) {
    const p = pairDistance(s, bones, pairs.a[k]!, pairs.b[k]!);
    worst = Math.max(worst, bones.radius[pairs.a[k]!]! + bones.radius[pairs.b[k]!]! - p);
  }
  return worst;
}

function pairDistance(s: ParticleState, bones: BoneTable, i: number, j: number): number {
  const x = s.x, h1 = 3 * bones.head[i]!, t1 = 3 * bones.tip[i]!, h2 = 3 * bones.head[j]!, t2 = 3 * bones.tip[j]!;
  const d1x = x[t1]! - x[h1]!, d1y = x[t1 + 1]! - x[h1 + 1]!, d1z = x[t1 + 2]! - x[h1 + 2]!;
  const d2x = x[t2]! - x[h2]!, d2y = x[t2 + 1]! - x[h2 + 1]!, d2z = x[t2 + 2]! - x[h2 + 2]!;
  closestSegmentSegment(x[h1]!, x[h1 + 1]!, x[h1 + 2]!, d1x, d1y, d1z, x[h2]!, x[h2 + 1]!, x[h2 + 2]!, d2x, d2y, d2z);
  const S = segScratch.s, T = segScratch.t;
  const nx = x[h1]! + S * d1x - x[h2]! - T * d2x, ny = x[h1 + 1]! + S * d1y - x[h2 + 1]! - T * d2y, nz = x[h1 + 2]! + S * d1z - x[h2 + 2]! - T * d2z;
  return Math.sqrt(nx * nx + ny * ny + nz * nz);
}

export function solveBoneCollisions(s: ParticleState, bones: BoneTable, pairs: BonePairs, P: Float64Array): void {
  const friction = P[P_FRICTION]!;
  const x = s.x, x0 = s.x0, w = s.w;
  for (let k = 0; k < pairs.count; k++) {
    const i = pairs.a[k]!, j = pairs.b[k]!;
    const ih1 = bones.head[i]!, it1 = bones.tip[i]!, ih2 = bones.head[j]!, it2 = bones.tip[j]!;
    const h1 = 3 * ih1, t1 = 3 * it1, h2 = 3 * ih2, t2 = 3 * it2;
    const d1x = x[t1]! - x[h1]!, d1y = x[t1 + 1]! - x[h1 + 1]!, d1z = x[t1 + 2]! - x[h1 + 2]!;
    const d2x = x[t2]! - x[h2]!, d2y = x[t2 + 1]! - x[h2 + 1]!, d2z = x[t2 + 2]! - x[h2 + 2]!;
    closestSegmentSegment(x[h1]!, x[h1 + 1]!, x[h1 + 2]!, d1x, d1y, d1z, x[h2]!, x[h2 + 1]!, x[h2 + 2]!, d2x, d2y, d2z);
    const S = segScratch.s, T = segScratch.t;
    let nx = x[h1]! + S * d1x - x[h2]! - T * d2x, ny = x[h1 + 1]! + S * d1y - x[h2 + 1]! - T * d2y, nz = x[h1 + 2]! + S * d1z - x[h2 + 2]! - T * d2z;
    const dist = Math.sqrt(nx * nx + ny * ny + nz * nz);
    const pen = bones.radius[i]! + bones.radius[j]! - dist;
    if (pen <= 0) continue;
    if (dist > 1e-12) { nx /= dist; ny /= dist; nz /= dist; }
    else { // axes cross: push along d1 × d2 (or any ⊥ when parallel)
      nx = d1y * d2z - d1z * d2y; ny = d1z * d2x - d1x * d2z; nz = d1x * d2y - d1y * d2x;
      let l = Math.sqrt(nx * nx + ny * ny + nz * nz);
      if (l < 1e-12) { nx = -d1y; ny = d1x; nz = 0; l = Math.sqrt(nx * nx + ny * ny); if (l < 1e-12) { nx = 1; ny = 0; l = 1; } }
      nx /= l; ny /= l; nz /= l;
    }
    const a1 = 1 - S, b1 = S, a2 = -(1 - T), b2 = -T; // gradient weights of the contact separation
    const wh1 = w[ih1]!, wt1 = w[it1]!, wh2 = w[ih2]!, wt2 = w[it2]!;
    const denom = wh1 * a1 * a1 + wt1 * b1 * b1 + wh2 * a2 * a2 + wt2 * b2 * b2;
    if (!(denom > 0)) continue;
    // Tangential relative motion of the contact points this step, before the push (the push is along n).
    let rx = 0, ry = 0, rz = 0;
    if (friction > 0) {
      rx = a1 * (x[h1]! - x0[h1]!) + b1 * (x[t1]! - x0[t1]!) + a2 * (x[h2]! - x0[h2]!) + b2 * (x[t2]! - x0[t2]!);
      ry = a1 * (x[h1 + 1]! - x0[h1 + 1]!) + b1 * (x[t1 + 1]! - x0[t1 + 1]!) + a2 * (x[h2 + 1]! - x0[h2 + 1]!) + b2 * (x[t2 + 1]! - x0[t2 + 1]!);
      rz = a1 * (x[h1 + 2]! - x0[h1 + 2]!) + b1 * (x[t1 + 2]! - x0[t1 + 2]!) + a2 * (x[h2 + 2]! - x0[h2 + 2]!) + b2 * (x[t2 + 2]! - x0[t2 + 2]!);
      const rn = rx * nx + ry * ny + rz * nz;
      rx -= rn * nx; ry -= rn * ny; rz -= rn * nz;
      const rt = Math.sqrt(rx * rx + ry * ry + rz * rz);
      const keep = rt <= friction * pen ? 1 : (friction * pen) / rt; // fraction of the slip undone
      rx *= -keep; ry *= -keep; rz *= -keep;
    }
    // Total correction vector at the contact: push p·n plus the friction correction.
    const cx = (pen * nx + rx) / denom, cy = (pen * ny + ry) / denom, cz = (pen * nz + rz) / denom;
    x[h1] += wh1 * a1 * cx; x[h1 + 1] += wh1 * a1 * cy; x[h1 + 2] += wh1 * a1 * cz;
    x[t1] += wt1 * b1 * cx; x[t1 + 1] += wt1 * b1 * cy; x[t1 + 2] += wt1 * b1 * cz;
    x[h2] += wh2 * a2 * cx; x[h2 + 1] += wh2 * a2 * cy; x[h2 + 2] += wh2 * a2 * cz;
    x[t2] += wt2 * b2 * cx; x[t2 + 1] += wt2 * b2 * cy; x[t2 + 2] += wt2 * b2 * cz;
  }
}

/** Floor at P[P_FLOOR] (m; NaN = none) with Coulomb μ = P[P_FLOOR_MU]. */
export function solveFloor(s: ParticleState, P: Float64Array): void {
  const height = P[P_FLOOR]!, friction = P[P_FLOOR_MU]!;
  if (Number.isNaN(height)) return;
  const x = s.x, x0 = s.x0;
  for (let i = 0; i < s.count; i++) {
    if (s.w[i] === 0) continue;
    const o = 3 * i, pen = height + s.radius[i]! - x[o + 1]!;
    if (pen <= 0) continue;
    x[o + 1] += pen;
    const dx = x[o]! - x0[o]!, dz = x[o + 2]! - x0[o + 2]!;
    const slip = Math.sqrt(dx * dx + dz * dz);
    if (slip === 0) continue;
    const keep = slip <= friction * pen ? 1 : (friction * pen) / slip;
    x[o] -= keep * dx; x[o + 2] -= keep * dz;
  }
}
