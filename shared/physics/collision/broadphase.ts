/**
 * Sweep and prune on one world axis. Shapes are kept sorted by (AABB min on the axis, shape index) — a total
 * order, so the sorted sequence, and with it the output order, depends only on the current AABBs, never on
 * history (a restored snapshot gives the same pairs in the same order). Re-sorting is an insertion sort of
 * last step's order: ≈ linear when bodies move a little per step. The sweep tests each shape against the
 * following ones whose interval starts before its own ends, then the two other axes, then the filters.
 *
 * The axis is chosen once, on the first update, as the one along which the AABB centres spread most
 * (variance), unless fixed in the constructor; `setAxis` changes it (and re-sorts).
 */
import type { BroadPhaseResult, PairExclusion, WorldShape } from './types';

export class SweepAndPrune implements BroadPhaseResult {
  pairs = new Int32Array(256);
  pairCount = 0;
  private order = new Int32Array(64);
  private keys = new Float64Array(64);
  private known = 0;
  private axis: number;

  /** @param axis 0 = x, 1 = y, 2 = z, or 'auto' (pick the axis of largest spread on the first update). */
  constructor(axis: 0 | 1 | 2 | 'auto' = 'auto') {
    this.axis = axis === 'auto' ? -1 : axis;
  }

  get sweepAxis(): number { return this.axis; }

  setAxis(axis: 0 | 1 | 2): void {
    this.axis = axis;
  }

  /**
   * Find all pairs of shapes[0..count−1] whose AABBs overlap (touching counts) and that pass the filters
   * (different bodies, at least one dynamic, group/mask both ways, not excluded). Writes `pairs` and
   * `pairCount` (pairs[2k] < pairs[2k+1]). Allocates only when the shape count or the pair count grows
   * past its high-water mark.
   */
  update(shapes: readonly WorldShape[], count: number, exclusion?: PairExclusion): number {
    if (this.axis < 0) this.axis = count > 0 ? widestAxis(shapes, count) : 0;
    const ax = this.axis;
    if (this.order.length < count) {
      const o = new Int32Array(Math.max(count, 2 * this.order.length));
      this.order = o;
      this.keys = new Float64Array(o.length);
    }
    const order = this.order, keys = this.keys;
    // A changed shape count (added/removed shapes) restarts from index order; the sort below is exact
    // either way, only slower that once.
    if (this.known !== count) { for (let i = 0; i < count; i++) order[i] = i; this.known = count; }
    for (let i = 0; i < count; i++) keys[i] = shapes[order[i]!]!.aabb[ax]!;
    // Insertion sort by (key, index).
    for (let i = 1; i < count; i++) {
      const o = order[i]!, k = keys[i]!;
      let j = i - 1;
      while (j >= 0 && (keys[j]! > k || (keys[j] === k && order[j]! > o))) {
        order[j + 1] = order[j]!; keys[j + 1] = keys[j]!; j--;
      }
      order[j + 1] = o; keys[j + 1] = k;
    }
    // Sweep.
    const ay = (ax + 1) % 3, az = (ax + 2) % 3;
    let pc = 0;
    for (let i = 0; i < count; i++) {
      const ia = order[i]!, a = shapes[ia]!, A = a.aabb;
      const maxA = A[ax + 3]!;
      for (let j = i + 1; j < count; j++) {
        if (keys[j]! > maxA) break;
        const ib = order[j]!, b = shapes[ib]!, B = b.aabb;
        if (A[ay]! > B[ay + 3]! || B[ay]! > A[ay + 3]! || A[az]! > B[az + 3]! || B[az]! > A[az + 3]!) continue;
        if (a.body === b.body || (!a.dynamic && !b.dynamic)) continue;
        if ((a.group & b.mask) === 0 || (b.group & a.mask) === 0) continue;
        if (exclusion !== undefined) {
          const lo = a.body < b.body ? a.body : b.body, hi = a.body < b.body ? b.body : a.body;
          if (exclusion.excluded(lo, hi)) continue;
        }
        if (2 * pc + 2 > this.pairs.length) {
          const p = new Int32Array(2 * this.pairs.length);
          p.set(this.pairs);
          this.pairs = p;
        }
        this.pairs[2 * pc] = ia < ib ? ia : ib;
        this.pairs[2 * pc + 1] = ia < ib ? ib : ia;
        pc++;
      }
    }
    this.pairCount = pc;
    return pc;
  }
}

function widestAxis(shapes: readonly WorldShape[], count: number): number {
  let best = 0, bestVar = -1;
  for (let ax = 0; ax < 3; ax++) {
    let s = 0, s2 = 0;
    for (let i = 0; i < count; i++) {
      const c = 0.5 * (shapes[i]!.aabb[ax]! + shapes[i]!.aabb[ax + 3]!);
      s += c; s2 += c * c;
    }
    const v = s2 / count - (s / count) * (s / count);
    if (v > bestVar + 1e-12) { bestVar = v; best = ax; }
  }
  return best;
}

/** A set of excluded body pairs (e.g. the bodies of each joint without collideConnected). */
export class BodyPairSet implements PairExclusion {
  private readonly set = new Set<number>();
  private static key(a: number, b: number): number {
    const lo = a < b ? a : b, hi = a < b ? b : a;
    // Body indices < 2²⁶: the key stays an exact integer below 2⁵³.
    return lo * 67108864 + hi;
  }
  add(a: number, b: number): void { this.set.add(BodyPairSet.key(a, b)); }
  delete(a: number, b: number): void { this.set.delete(BodyPairSet.key(a, b)); }
  has(a: number, b: number): boolean { return this.set.has(BodyPairSet.key(a, b)); }
  clear(): void { this.set.clear(); }
  excluded(a: number, b: number): boolean { return this.set.has(BodyPairSet.key(a, b)); }
}

/** Brute-force reference (O(n²)), same filters and same pair convention; for tests and debugging. */
export function bruteForcePairs(shapes: readonly WorldShape[], count: number, exclusion?: PairExclusion): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) {
    for (let j = i + 1; j < count; j++) {
      const a = shapes[i]!, b = shapes[j]!, A = a.aabb, B = b.aabb;
      let overlap = true;
      for (let k = 0; k < 3; k++) if (A[k]! > B[k + 3]! || B[k]! > A[k + 3]!) overlap = false;
      if (!overlap || a.body === b.body || (!a.dynamic && !b.dynamic)) continue;
      if ((a.group & b.mask) === 0 || (b.group & a.mask) === 0) continue;
      if (exclusion?.excluded(Math.min(a.body, b.body), Math.max(a.body, b.body))) continue;
      out.push([i, j]);
    }
  }
  return out;
}
