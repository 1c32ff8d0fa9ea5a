/** Closest points between segments and points: the core of every sphere/capsule routine (Ericson,
 *  Real-Time Collision Detection §5.1.9). Results go to module scratch so nothing allocates. */

/** Output of closestSegmentSegment: parameters s on segment 1, t on segment 2, both in [0, 1]. */
export const segScratch = { s: 0, t: 0 };

/** Segment 1 = p1 + s·d1, segment 2 = p2 + t·d2 with s, t ∈ [0, 1]; writes the closest pair's s, t into
 *  segScratch. Degenerate (zero-length) segments are handled as points. */
export function closestSegmentSegment(
  p1x: number, p1y: number, p1z: number, d1x: number, d1y: number, d1z: number,
  p2x: number, p2y: number, p2z: number, d2x: number, d2y: number, d2z: number,
): void {
  const rx = p1x - p2x, ry = p1y - p2y, rz = p1z - p2z;
  const a = d1x * d1x + d1y * d1y + d1z * d1z;
  const e = d2x * d2x + d2y * d2y + d2z * d2z;
  const f = d2x * rx + d2y * ry + d2z * rz;
  const EPS = 1e-18;
  let s: number, t: number;
  if (a <= EPS && e <= EPS) { segScratch.s = 0; segScratch.t = 0; return; }
  if (a <= EPS) {
    s = 0;
    t = clamp01(f / e);
  } else {
    const c = d1x * rx + d1y * ry + d1z * rz;
    if (e <= EPS) {
      t = 0;
      s = clamp01(-c / a);
    } else {
      const b = d1x * d2x + d1y * d2y + d1z * d2z;
      const denom = a * e - b * b; // ≥ 0; 0 when parallel
      // Parallel: any s works; pick the middle of the overlap so the choice is stable under tiny motion.
      s = denom > 1e-12 * a * e ? clamp01((b * f - c * e) / denom) : parallelMid(a, b, c, e, f);
      t = (b * s + f) / e;
      if (t < 0) { t = 0; s = clamp01(-c / a); }
      else if (t > 1) { t = 1; s = clamp01((b - c) / a); }
    }
  }
  segScratch.s = s;
  segScratch.t = t;
}

/** For parallel segments: the s in the middle of the interval of segment 1 that projects onto segment 2. */
function parallelMid(a: number, b: number, c: number, _e: number, _f: number): number {
  // Projection of segment 2's ends (t = 0, 1) on line 1: s = (−c + t·b)/a.
  const s0 = -c / a, s1 = (b - c) / a;
  const lo = clamp01(Math.min(s0, s1)), hi = clamp01(Math.max(s0, s1));
  return 0.5 * (lo + hi);
}

export const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

/** Parameter t ∈ [0, 1] of the point of segment p + t·d closest to q. */
export function closestOnSegment(px: number, py: number, pz: number, dx: number, dy: number, dz: number, qx: number, qy: number, qz: number): number {
  const dd = dx * dx + dy * dy + dz * dz;
  if (dd <= 1e-18) return 0;
  return clamp01(((qx - px) * dx + (qy - py) * dy + (qz - pz) * dz) / dd);
}
