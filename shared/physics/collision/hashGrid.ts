/**
 * Hashed uniform-grid broad phase: near-linear cost in the shape count however the shapes are laid out.
 *
 * Why not sweep and prune here: on one axis SAP tests every shape against all shapes whose interval on that
 * axis overlaps its own, so a 12 × 11 grid of ragdolls (the benchmark's 128 copies) puts ~121 shapes in each
 * column of the sweep axis and the work grows as N²/columns — 18–20 % worse than linear from 16 to 128.
 *
 * Each update:
 * 1. cell edge = 2 × the mean largest AABB side of the dynamic shapes (so a typical shape covers 1–8 cells);
 * 2. shapes with a side longer than BIG_CELLS cells (a ground slab) are "big": tested against every shape,
 *    in index order — a cost of (big shapes) × N;
 * 3. every other shape is entered in each cell its AABB covers; entries are bucketed by a hash of the cell by
 *    a counting sort (filled in shape index order, so a bucket lists its shapes by increasing index);
 * 4. within each bucket, two entries of the same cell are a candidate pair; the pair is reported only from
 *    the cell that holds the lower corner of the two AABBs' intersection, so never twice.
 * Same filters as SweepAndPrune (different bodies, at least one dynamic, group/mask both ways, exclusion).
 * Order: a function of the AABBs and the indices only (bucket order, then index order), never of history.
 * When no group meets any mask (the union of the groups & the union of the masks is 0) it returns at once.
 * Allocates only when the shape, entry or pair count passes its high-water mark.
 */
import type { BroadPhaseResult, PairExclusion, WorldShape } from './types';

/** A shape longer than this many cells along some axis is tested against all shapes instead. */
const BIG_CELLS = 4;

export class HashGrid implements BroadPhaseResult {
  pairs = new Int32Array(256);
  pairCount = 0;
  /** Cell edge (m) of the last update. */
  cellSize = 1;
  private big = new Int32Array(16);
  private cellLo = new Int32Array(64 * 3);
  private cellHi = new Int32Array(64 * 3);
  private bucketStart = new Int32Array(257);
  private entryShape = new Int32Array(256);
  private entryCell = new Int32Array(256 * 3);
  /** Per entry, bit k set when the shape's AABB starts in the entry's cell along axis k. */
  private entryFirst = new Uint8Array(256);

  update(shapes: readonly WorldShape[], count: number, exclusion?: PairExclusion): number {
    this.pairCount = 0;
    let dyn = 0, sum = 0, groups = 0, masks = 0;
    for (let i = 0; i < count; i++) {
      const s = shapes[i]!;
      groups |= s.group; masks |= s.mask;
      if (!s.dynamic) continue;
      const a = s.aabb;
      sum += Math.max(a[3]! - a[0]!, a[4]! - a[1]!, a[5]! - a[2]!);
      dyn++;
    }
    // No two shapes can pass the group/mask test (a generated creature with self-collision off: every body
    // in group 1 and masking group 1 out, only the floor to touch, which is not a shape): no pair to find.
    if (dyn === 0 || (groups & masks) === 0) return 0;
    const cell = Math.max(2 * sum / dyn, 1e-6), inv = 1 / cell;
    this.cellSize = cell;
    if (this.cellLo.length < 3 * count) { this.cellLo = new Int32Array(6 * count); this.cellHi = new Int32Array(6 * count); }
    if (this.big.length < count) this.big = new Int32Array(2 * count);

    // Cell ranges; big shapes aside.
    let nBig = 0, entries = 0;
    const lo = this.cellLo, hi = this.cellHi;
    for (let i = 0; i < count; i++) {
      const a = shapes[i]!.aabb;
      let cells = 1, isBig = false;
      for (let k = 0; k < 3; k++) {
        const l = Math.floor(a[k]! * inv), h = Math.floor(a[k + 3]! * inv);
        if (h - l >= BIG_CELLS || !(h - l >= 0)) isBig = true;
        lo[3 * i + k] = l; hi[3 * i + k] = h;
        cells *= h - l + 1;
      }
      if (isBig) { this.big[nBig++] = i; lo[3 * i] = 1; hi[3 * i] = 0; continue; } // empty range: no entries
      entries += cells;
    }

    // Counting sort of the entries into 2^k ≥ 2·entries buckets.
    let size = 16;
    while (size < 2 * entries) size *= 2;
    if (this.bucketStart.length < size + 1) this.bucketStart = new Int32Array(2 * size + 1);
    if (this.entryShape.length < entries) {
      this.entryShape = new Int32Array(2 * entries); this.entryCell = new Int32Array(6 * entries); this.entryFirst = new Uint8Array(2 * entries);
    }
    const start = this.bucketStart, mask = size - 1;
    start.fill(0, 0, size + 1);
    for (let i = 0; i < count; i++) {
      for (let x = lo[3 * i]!; x <= hi[3 * i]!; x++) for (let y = lo[3 * i + 1]!; y <= hi[3 * i + 1]!; y++) for (let z = lo[3 * i + 2]!; z <= hi[3 * i + 2]!; z++) {
        start[(hashCell(x, y, z) & mask) + 1]!++;
      }
    }
    for (let b = 0; b < size; b++) start[b + 1]! += start[b]!;
    // Fill (start[b] is advanced as entries go in, then restored from its neighbour).
    const es = this.entryShape, ec = this.entryCell, ef = this.entryFirst;
    for (let i = 0; i < count; i++) {
      for (let x = lo[3 * i]!; x <= hi[3 * i]!; x++) for (let y = lo[3 * i + 1]!; y <= hi[3 * i + 1]!; y++) for (let z = lo[3 * i + 2]!; z <= hi[3 * i + 2]!; z++) {
        const b = hashCell(x, y, z) & mask, e = start[b]!++;
        es[e] = i; ec[3 * e] = x; ec[3 * e + 1] = y; ec[3 * e + 2] = z;
        ef[e] = (x === lo[3 * i] ? 1 : 0) | (y === lo[3 * i + 1] ? 2 : 0) | (z === lo[3 * i + 2] ? 4 : 0);
      }
    }
    for (let b = size; b > 0; b--) start[b] = start[b - 1]!;
    start[0] = 0;

    // Pairs within each bucket (same cell, reported from the cell of the intersection's lower corner).
    for (let b = 0; b < size; b++) {
      const end = start[b + 1]!;
      for (let e = start[b]!; e < end; e++) {
        const ia = es[e]!, cx = ec[3 * e]!, cy = ec[3 * e + 1]!, cz = ec[3 * e + 2]!, A = shapes[ia]!.aabb, fe = ef[e]!;
        for (let f = e + 1; f < end; f++) {
          if (ec[3 * f] !== cx || ec[3 * f + 1] !== cy || ec[3 * f + 2] !== cz) continue;
          // Lower corner in this cell: floor(max(a, b)·inv) = max(floor(a·inv), floor(b·inv)) (both maps
          // monotone) and both start at or below the cell, so per axis one of the two must start in it.
          if ((fe | ef[f]!) !== 7) continue;
          const ib = es[f]!, B = shapes[ib]!.aabb;
          if (A[0]! > B[3]! || B[0]! > A[3]! || A[1]! > B[4]! || B[1]! > A[4]! || A[2]! > B[5]! || B[2]! > A[5]!) continue;
          this.consider(shapes, ia, ib, exclusion);
        }
      }
    }
    // Big shapes against all (a big–big pair once, from the lower index).
    for (let g = 0; g < nBig; g++) {
      const ia = this.big[g]!, A = shapes[ia]!.aabb;
      for (let ib = 0; ib < count; ib++) {
        if (ib === ia) continue;
        if (lo[3 * ib]! > hi[3 * ib]! && ib < ia) continue; // big–big: already done from ib
        const B = shapes[ib]!.aabb;
        if (A[0]! > B[3]! || B[0]! > A[3]! || A[1]! > B[4]! || B[1]! > A[4]! || A[2]! > B[5]! || B[2]! > A[5]!) continue;
        this.consider(shapes, ia, ib, exclusion);
      }
    }
    return this.pairCount;
  }

  private consider(shapes: readonly WorldShape[], ia: number, ib: number, exclusion: PairExclusion | undefined): void {
    const a = shapes[ia]!, b = shapes[ib]!;
    if (a.body === b.body || (!a.dynamic && !b.dynamic)) return;
    if ((a.group & b.mask) === 0 || (b.group & a.mask) === 0) return;
    if (exclusion !== undefined) {
      const l = a.body < b.body ? a.body : b.body, h = a.body < b.body ? b.body : a.body;
      if (exclusion.excluded(l, h)) return;
    }
    const pc = this.pairCount;
    if (2 * pc + 2 > this.pairs.length) {
      const p = new Int32Array(2 * this.pairs.length);
      p.set(this.pairs);
      this.pairs = p;
    }
    this.pairs[2 * pc] = ia < ib ? ia : ib;
    this.pairs[2 * pc + 1] = ia < ib ? ib : ia;
    this.pairCount = pc + 1;
  }
}

/** Spatial hash of integer cell coordinates (Teschner et al. 2003 primes). */
function hashCell(x: number, y: number, z: number): number {
  return (Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791)) >>> 0;
}
