/**
 * A broad phase that keeps its candidate pairs across steps (Box2D's fat AABBs, once for the whole world):
 * each shape gets a "fat" box, its AABB grown by FAT_MARGIN on every side, and the candidates are the pairs
 * whose fat boxes overlap, found by the world's own broad phase (a HashGrid) over the fat boxes. While every
 * shape's AABB stays inside its fat box (and no shape was added, removed or changed between static and
 * dynamic), no pair can start to overlap that is not a candidate, so a step only tests the candidates' AABBs
 * and filters; when one shape leaves its box, every fat box and the candidates are made again.
 *
 * The output is exactly the pairs the plain grid finds (the AABBs overlap, different bodies, at least one
 * dynamic, group/mask both ways, not excluded — the filters run every step, so joints added or removed
 * between steps count at once), in one canonical order: by lower shape index, then higher. That order is a
 * function of the pair set alone, so the contacts never depend on when the fat boxes were made (a restored
 * snapshot steps bit for bit as the original run did). A resting scene then pays a scan of its shapes and of
 * its candidates per step instead of the grid (ragdoll11 × 128: 1,409 shapes, the grid ≈ 0.5 ms).
 */
import type { BroadPhaseResult, PairExclusion, WorldShape } from './types';

/** The broad phase that finds the candidates over the fat boxes (the world's own: a HashGrid by default). */
export interface CandidateFinder extends BroadPhaseResult {
  update(shapes: readonly WorldShape[], count: number, exclusion?: PairExclusion): number;
}

/** Growth of a shape's fat box over its AABB on each side (m). A resting ragdoll's limbs stay well inside it;
 *  Box2D's aabbMargin is 0.1 m. */
export const FAT_MARGIN = 0.05;

/** What the grid reads of a shape (WorldShape's broad-phase fields), for the fat boxes. */
interface FatProxy { aabb: Float64Array; body: number; dynamic: boolean; group: number; mask: number }

export class FatPairs implements BroadPhaseResult {
  pairs = new Int32Array(256);
  pairCount = 0;
  /** Candidate pairs (lo, hi), sorted. */
  private cand = new Int32Array(256);
  private candCount = 0;
  /** Fat boxes, 6 per shape; the dynamic flag each shape had when they were made. */
  private fat = new Float64Array(0);
  private dyn = new Uint8Array(0);
  private known = -1;
  /** Stand-ins the candidate finder reads for the shapes: fat boxes, a body each, no group filter. */
  private proxies: FatProxy[] = [];
  private keys = new Float64Array(256);
  /** Rebuilds of the candidates so far (tests, stats). */
  rebuilds = 0;

  constructor(private readonly grid: CandidateFinder) {}

  update(shapes: readonly WorldShape[], count: number, exclusion?: PairExclusion): number {
    if (!this.inside(shapes, count)) this.rebuild(shapes, count);
    let n = 0;
    const c = this.cand;
    for (let k = 0; k < this.candCount; k++) {
      const ia = c[2 * k]!, ib = c[2 * k + 1]!, a = shapes[ia]!, b = shapes[ib]!, A = a.aabb, B = b.aabb;
      if (A[0]! > B[3]! || B[0]! > A[3]! || A[1]! > B[4]! || B[1]! > A[4]! || A[2]! > B[5]! || B[2]! > A[5]!) continue;
      if (a.body === b.body || (!a.dynamic && !b.dynamic)) continue;
      if ((a.group & b.mask) === 0 || (b.group & a.mask) === 0) continue;
      if (exclusion !== undefined) {
        const l = a.body < b.body ? a.body : b.body, h = a.body < b.body ? b.body : a.body;
        if (exclusion.excluded(l, h)) continue;
      }
      this.pairs[2 * n] = ia; this.pairs[2 * n + 1] = ib;
      n++;
    }
    this.pairCount = n;
    return n;
  }

  /** Every shape's AABB within its fat box, and the same shapes, dynamic as before? */
  private inside(shapes: readonly WorldShape[], count: number): boolean {
    if (count !== this.known) return false;
    const f = this.fat, d = this.dyn;
    for (let i = 0; i < count; i++) {
      const s = shapes[i]!, a = s.aabb, o = 6 * i;
      if (a[0]! < f[o]! || a[1]! < f[o + 1]! || a[2]! < f[o + 2]! || a[3]! > f[o + 3]! || a[4]! > f[o + 4]! || a[5]! > f[o + 5]!) return false;
      if ((s.dynamic ? 1 : 0) !== d[i]) return false;
    }
    return true;
  }

  private rebuild(shapes: readonly WorldShape[], count: number): void {
    this.rebuilds++;
    if (this.fat.length < 6 * count) { this.fat = new Float64Array(12 * count); this.dyn = new Uint8Array(2 * count); }
    const f = this.fat;
    while (this.proxies.length < count) this.proxies.push({ aabb: new Float64Array(6), body: 0, dynamic: false, group: 0, mask: 0 });
    const proxies = this.proxies;
    for (let i = 0; i < count; i++) {
      const s = shapes[i]!, a = s.aabb, o = 6 * i, p = proxies[i]!;
      for (let k = 0; k < 3; k++) {
        f[o + k] = a[k]! - FAT_MARGIN; f[o + 3 + k] = a[k + 3]! + FAT_MARGIN;
        p.aabb[k] = f[o + k]!; p.aabb[k + 3] = f[o + 3 + k]!;
      }
      // Every pair of fat boxes is a candidate but the two-static ones (neither can move into contact
      // without changing type, which rebuilds): the per-step filters decide the rest.
      p.body = i; p.dynamic = s.dynamic; p.group = 1; p.mask = 1;
      this.dyn[i] = s.dynamic ? 1 : 0;
    }
    this.known = count;
    const g = this.grid;
    const n = g.update(proxies as unknown as WorldShape[], count);
    // Sort by (lo, hi): keys lo·2²¹ + hi, exact in a double for shape indices below 2²¹.
    if (this.keys.length < n) this.keys = new Float64Array(2 * n);
    const keys = this.keys.subarray(0, n);
    for (let k = 0; k < n; k++) keys[k] = g.pairs[2 * k]! * 2097152 + g.pairs[2 * k + 1]!;
    keys.sort();
    if (this.cand.length < 2 * n) this.cand = new Int32Array(4 * n);
    if (this.pairs.length < 2 * n) this.pairs = new Int32Array(4 * n);
    for (let k = 0; k < n; k++) {
      const key = keys[k]!, lo = Math.floor(key / 2097152);
      this.cand[2 * k] = lo; this.cand[2 * k + 1] = key - lo * 2097152;
    }
    this.candCount = n;
  }
}
