/**
 * The cyclic hand path of the Armed Mine: a closed curve through ≥ 3 control points, sampled by a phase in
 * [0, 1) that advances at a fixed rate (cycles per second).
 *
 * Curve: closed centripetal Catmull-Rom (knot spacing tᵢ₊₁ − tᵢ = |Pᵢ₊₁ − Pᵢ|^α, α = ½). Why centripetal:
 * Yuksel, Schaefer & Keyser ("Parameterization and applications of Catmull-Rom curves", CAD 2011) prove
 * that α = ½ is the only choice that never forms a cusp or a self-intersection inside a segment, and it
 * follows the control polygon tightly — a uniform (α = 0) spline loops and overshoots when an artist drags
 * two points close together, which would drive the hand through the floor. Each segment is the cubic
 * Hermite curve whose end tangents come from the Barry–Goldman pyramid, so neighbouring segments share
 * their tangent: the loop is C¹ in the knot parameter, and (no cusps ⇒ dp/dt ≠ 0) its unit tangent is
 * continuous everywhere.
 *
 * Sampling: phase is ARC-LENGTH, not knot parameter. The hand then moves at a constant speed
 * (length · rate, m/s) along the loop, so the motors see no speed surge on short segments, and the share of
 * the cycle the hand spends on a stretch of the path equals that stretch's share of the loop length — what
 * the artist sees drawn is how the time is spent. Because the speed is constant and the unit tangent is
 * continuous, the sampled point is C¹ in phase. The inversion s → t uses a table of `samplesPerSegment`
 * chords per segment to find the interval, then Newton steps on Gauss–Legendre arc length inside it, so
 * equal phase steps cover equal lengths to well under 0.1 %.
 *
 * Units: whatever the control points are in (metres in a rig); tangent = dp/dphase (m per cycle).
 */
import { type ReadonlyVec3, type Vec3 } from '../math/vec3';

export type PathInterpolation = 'centripetal-catmull-rom' | 'linear';

export interface PathSample {
  /** Point on the loop. */
  point: Vec3;
  /** dp/dphase (m per cycle); multiply by the rate (cycles/s) for the hand's target velocity. */
  tangent: Vec3;
}

/** Closed-loop segment as a cubic p(u) = ((a·u + b)·u + c)·u + d, u ∈ [0, 1]. */
interface Segment { a: Vec3; b: Vec3; c: Vec3; d: Vec3 }

/** Two control points closer than this (m) make a zero-length knot interval. */
const MIN_POINT_SPACING = 1e-6;

export class CyclicPath {
  readonly points: readonly Vec3[];
  readonly interpolation: PathInterpolation;
  /** Total loop length (same unit as the points). */
  readonly length: number;
  private readonly segments: Segment[];
  private readonly samplesPerSegment: number;
  /** Cumulative arc length at table entry k (k = seg·samplesPerSegment + j), length count·n + 1. */
  private readonly cumulative: Float64Array;

  /**
   * @param points control points (≥ 3, neighbours distinct; the last joins back to the first).
   * @param where  names the owner in error messages, e.g. "controllers[0].controlPoints".
   */
  constructor(points: readonly ReadonlyVec3[], interpolation: PathInterpolation = 'centripetal-catmull-rom',
    samplesPerSegment = 32, where = 'controlPoints') {
    if (points.length < 3) throw new Error(`${where}: a cyclic path needs at least 3 control points, got ${points.length}`);
    points.forEach((p, i) => {
      if (p.length !== 3 || !p.every(Number.isFinite)) throw new Error(`${where}[${i}]: expected 3 finite numbers, got ${JSON.stringify(p)}`);
    });
    const n = points.length;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      if (dist(points[i]!, points[j]!) < MIN_POINT_SPACING) {
        throw new Error(`${where}[${i}] and [${j}] coincide (closer than ${MIN_POINT_SPACING} m): neighbouring control points must differ`);
      }
    }
    this.points = points.map((p) => [p[0], p[1], p[2]] as Vec3);
    this.interpolation = interpolation;
    this.samplesPerSegment = interpolation === 'linear' ? 1 : Math.max(1, Math.floor(samplesPerSegment));
    this.segments = [];
    for (let i = 0; i < n; i++) {
      const p0 = this.points[(i - 1 + n) % n]!, p1 = this.points[i]!, p2 = this.points[(i + 1) % n]!, p3 = this.points[(i + 2) % n]!;
      this.segments.push(interpolation === 'linear' ? linearSegment(p1, p2) : centripetalSegment(p0, p1, p2, p3));
    }
    const m = this.samplesPerSegment;
    this.cumulative = new Float64Array(n * m + 1);
    let s = 0;
    let prev = this.segments[0]!.d;
    for (let i = 0; i < n; i++) {
      const seg = this.segments[i]!;
      for (let j = 1; j <= m; j++) {
        const p = evalSegment(seg, j / m);
        s += dist(prev, p);
        this.cumulative[i * m + j] = s;
        prev = p;
      }
    }
    this.length = s;
  }

  /** Point and tangent at `phase` (any real number; wrapped into [0, 1)). */
  sample(phase: number): PathSample {
    this.locate(wrapPhase(phase));
    const segment = this.segments[this.locSeg]!, u = this.locU;
    const point = evalSegment(segment, u);
    const du = evalDerivative(segment, u);
    // Arc-length parametrisation: |dp/dphase| = total length, direction = the curve's unit tangent.
    const speed = Math.hypot(du[0], du[1], du[2]);
    const k = speed > 1e-12 ? this.length / speed : 0;
    return { point, tangent: [du[0] * k, du[1] * k, du[2] * k] };
  }

  /** sample(phase).point written into `out`, without allocating (the per-step form; bit for bit equal). */
  samplePoint(phase: number, out: Vec3): Vec3 {
    this.locate(wrapPhase(phase));
    const s = this.segments[this.locSeg]!, u = this.locU;
    out[0] = ((s.a[0] * u + s.b[0]) * u + s.c[0]) * u + s.d[0];
    out[1] = ((s.a[1] * u + s.b[1]) * u + s.c[1]) * u + s.d[1];
    out[2] = ((s.a[2] * u + s.b[2]) * u + s.c[2]) * u + s.d[2];
    return out;
  }

  /** Evenly spaced points along the loop (for drawing and for tests). */
  polyline(count: number): Vec3[] {
    const out: Vec3[] = [];
    for (let i = 0; i < count; i++) out.push(this.sample(i / count).point);
    return out;
  }

  /** locate()'s answer: segment index and its parameter u (fields, so a step makes no object). */
  private locSeg = 0;
  private locU = 0;

  private locate(phase: number): void {
    const target = phase * this.length;
    const cum = this.cumulative;
    let lo = 0, hi = cum.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (cum[mid]! <= target) lo = mid; else hi = mid;
    }
    const span = cum[hi]! - cum[lo]!;
    const f = span > 0 ? (target - cum[lo]!) / span : 0;
    const m = this.samplesPerSegment;
    const seg = Math.min(this.segments.length - 1, Math.floor(lo / m));
    const u0 = (lo - seg * m) / m, u1 = u0 + 1 / m;
    let u = u0 + f / m;
    if (this.interpolation !== 'linear' && span > 0) {
      // Newton on s(u) − r = 0 with s from Gauss–Legendre quadrature of |p'| over [u0, u]: the chord
      // table alone would leave a speed ripple of O(1/m) inside each table interval.
      const segment = this.segments[seg]!;
      const r = target - cum[lo]!;
      const scaleChord = span / gaussArc(segment, u0, u1); // chords are a hair shorter than the arc
      for (let k = 0; k < 3; k++) {
        const speed = speedAt(segment, u) * scaleChord;
        if (speed < 1e-12) break;
        u = Math.min(u1, Math.max(u0, u - (gaussArc(segment, u0, u) * scaleChord - r) / speed));
      }
    }
    this.locSeg = seg; this.locU = Math.min(1, Math.max(0, u));
  }
}

const GAUSS_X = [-0.906179845938664, -0.5384693101056831, 0, 0.5384693101056831, 0.906179845938664];
const GAUSS_W = [0.23692688505618908, 0.47862867049936647, 0.5688888888888889, 0.47862867049936647, 0.23692688505618908];

/** Arc length of a segment between parameters a and b: 5-point Gauss–Legendre of |p'(u)|. */
function gaussArc(s: Segment, a: number, b: number): number {
  const half = (b - a) / 2, mid = (a + b) / 2;
  let sum = 0;
  for (let i = 0; i < 5; i++) {
    sum += GAUSS_W[i]! * speedAt(s, mid + half * GAUSS_X[i]!);
  }
  return sum * half;
}

/** phase mod 1 in [0, 1). */
export function wrapPhase(phase: number): number {
  if (!Number.isFinite(phase)) return 0;
  const r = phase - Math.floor(phase);
  return r >= 1 ? 0 : r;
}

/** Phase after dt seconds at `rate` cycles/s. */
export const advancePhase = (phase: number, rate: number, dt: number): number => wrapPhase(phase + rate * dt);

// ------------------------------------------------------------------------------------------ segments

function dist(a: ReadonlyVec3, b: ReadonlyVec3): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

function linearSegment(p1: ReadonlyVec3, p2: ReadonlyVec3): Segment {
  return { a: [0, 0, 0], b: [0, 0, 0], c: [p2[0] - p1[0], p2[1] - p1[1], p2[2] - p1[2]], d: [p1[0], p1[1], p1[2]] };
}

/**
 * Segment P1→P2 of the centripetal Catmull-Rom spline, as a Hermite cubic in u = (t − t1)/(t2 − t1).
 * Knots: t0 = 0, tᵢ₊₁ = tᵢ + |Pᵢ₊₁ − Pᵢ|^½. The Barry–Goldman tangents at P1 and P2 (d/dt) are
 *   m1 = (P1−P0)/(t1−t0) − (P2−P0)/(t2−t0) + (P2−P1)/(t2−t1)
 *   m2 = (P2−P1)/(t2−t1) − (P3−P1)/(t3−t1) + (P3−P2)/(t3−t2)
 * and scaled by (t2 − t1) for the unit parameter u. Hermite: p = (2P1 − 2P2 + M1 + M2)u³
 * + (−3P1 + 3P2 − 2M1 − M2)u² + M1·u + P1.
 */
function centripetalSegment(p0: ReadonlyVec3, p1: ReadonlyVec3, p2: ReadonlyVec3, p3: ReadonlyVec3): Segment {
  const d01 = Math.sqrt(dist(p0, p1)), d12 = Math.sqrt(dist(p1, p2)), d23 = Math.sqrt(dist(p2, p3));
  const a: Vec3 = [0, 0, 0], b: Vec3 = [0, 0, 0], c: Vec3 = [0, 0, 0], d: Vec3 = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    const m1 = ((p1[k]! - p0[k]!) / d01 - (p2[k]! - p0[k]!) / (d01 + d12) + (p2[k]! - p1[k]!) / d12) * d12;
    const m2 = ((p2[k]! - p1[k]!) / d12 - (p3[k]! - p1[k]!) / (d12 + d23) + (p3[k]! - p2[k]!) / d23) * d12;
    a[k] = 2 * p1[k]! - 2 * p2[k]! + m1 + m2;
    b[k] = -3 * p1[k]! + 3 * p2[k]! - 2 * m1 - m2;
    c[k] = m1;
    d[k] = p1[k]!;
  }
  return { a, b, c, d };
}

function evalSegment(s: Segment, u: number): Vec3 {
  return [
    ((s.a[0] * u + s.b[0]) * u + s.c[0]) * u + s.d[0],
    ((s.a[1] * u + s.b[1]) * u + s.c[1]) * u + s.d[1],
    ((s.a[2] * u + s.b[2]) * u + s.c[2]) * u + s.d[2],
  ];
}

/** |p'(u)|: Math.hypot of evalDerivative's components, without the array. */
function speedAt(s: Segment, u: number): number {
  return Math.hypot((3 * s.a[0] * u + 2 * s.b[0]) * u + s.c[0], (3 * s.a[1] * u + 2 * s.b[1]) * u + s.c[1], (3 * s.a[2] * u + 2 * s.b[2]) * u + s.c[2]);
}

function evalDerivative(s: Segment, u: number): Vec3 {
  return [
    (3 * s.a[0] * u + 2 * s.b[0]) * u + s.c[0],
    (3 * s.a[1] * u + 2 * s.b[1]) * u + s.c[1],
    (3 * s.a[2] * u + 2 * s.b[2]) * u + s.c[2],
  ];
}
