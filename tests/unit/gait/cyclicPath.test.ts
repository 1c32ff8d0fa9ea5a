import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CyclicPath, advancePhase, wrapPhase } from '../../../shared/gait/cyclicPath';
import type { Vec3 } from '../../../shared/math/vec3';

const dist = (a: Vec3, b: readonly number[]) => Math.hypot(a[0] - b[0]!, a[1] - b[1]!, a[2] - b[2]!);
const unit = (v: Vec3): Vec3 => { const l = Math.hypot(...v); return [v[0] / l, v[1] / l, v[2] / l]; };

// A swimmer's stroke seen from the side: reach forward-down, pull back along the floor, lift, return.
const stroke: [number, number, number][] = [[0.2, -0.3, 0.9], [0.2, -0.33, 0.45], [0.2, -0.1, 0.25], [0.2, 0.25, 0.6]];

describe('CyclicPath (closed centripetal Catmull-Rom, arc-length phase)', () => {
  it('passes through every control point, at phases in increasing order', () => {
    const path = new CyclicPath(stroke);
    const samples = 4000;
    const found: number[] = [];
    for (const cp of stroke) {
      let best = Infinity, bestPhase = 0;
      for (let i = 0; i < samples; i++) {
        const d = dist(path.sample(i / samples).point, cp);
        if (d < best) { best = d; bestPhase = i / samples; }
      }
      expect(best).toBeLessThan(1e-3);
      found.push(bestPhase);
    }
    expect(found[0]).toBeCloseTo(0, 6);
    for (let i = 1; i < found.length; i++) expect(found[i]!).toBeGreaterThan(found[i - 1]!);
  });

  it('is closed and C¹ in phase: position and tangent continuous across the seam and every joint', () => {
    const path = new CyclicPath(stroke);
    const eps = 1e-7;
    // Check continuity everywhere on a fine grid, seams included.
    for (let i = 0; i < 400; i++) {
      const ph = i / 400;
      const a = path.sample(ph - eps), b = path.sample(ph + eps);
      expect(dist(a.point, b.point)).toBeLessThan(1e-5);
      const ta = unit(a.tangent), tb = unit(b.tangent);
      expect(dist(ta, tb)).toBeLessThan(1e-3);
    }
  });

  it('moves at constant speed: |dp/dphase| = loop length, and equal phase steps cover equal arc lengths', () => {
    const path = new CyclicPath(stroke);
    const n = 200;
    const pts = path.polyline(n);
    const chords = pts.map((p, i) => dist(p, pts[(i + 1) % n]!));
    const mean = chords.reduce((s, c) => s + c, 0) / n;
    for (const c of chords) expect(Math.abs(c - mean) / mean).toBeLessThan(0.002);
    expect(Math.abs(mean * n - path.length) / path.length).toBeLessThan(1e-3);
    for (let i = 0; i < 50; i++) expect(Math.hypot(...path.sample(i / 50).tangent)).toBeCloseTo(path.length, 6);
  });

  it('has a tangent equal to the finite difference of the point', () => {
    const path = new CyclicPath(stroke);
    for (const ph of [0.05, 0.31, 0.5, 0.77, 0.93]) {
      const h = 1e-5;
      const a = path.sample(ph - h).point, b = path.sample(ph + h).point;
      const fd: Vec3 = [(b[0] - a[0]) / (2 * h), (b[1] - a[1]) / (2 * h), (b[2] - a[2]) / (2 * h)];
      expect(dist(fd, path.sample(ph).tangent) / path.length).toBeLessThan(0.002);
    }
  });

  it('does not overshoot or loop when two control points nearly touch (centripetal)', () => {
    const pts: [number, number, number][] = [[0, 0, 0], [1, 0, 0], [1.01, 0, 0.01], [1, 0, 1], [0, 0, 1]];
    const path = new CyclicPath(pts);
    for (const p of path.polyline(2000)) {
      expect(p[0]).toBeGreaterThan(-0.2); expect(p[0]).toBeLessThan(1.2);
      expect(p[2]).toBeGreaterThan(-0.2); expect(p[2]).toBeLessThan(1.2);
    }
  });

  it('linear interpolation is the control polygon', () => {
    const path = new CyclicPath([[0, 0, 0], [1, 0, 0], [1, 1, 0]], 'linear');
    expect(path.length).toBeCloseTo(2 + Math.SQRT2, 9);
    const p = path.sample(0.5 / path.length).point;
    expect(dist(p, [0.5, 0, 0])).toBeLessThan(1e-9);
  });

  it('rejects bad control points with a message naming the field', () => {
    expect(() => new CyclicPath([[0, 0, 0], [1, 0, 0]], 'linear', 32, 'controllers[0].controlPoints')).toThrow(/controllers\[0\]\.controlPoints.*at least 3/);
    expect(() => new CyclicPath([[0, 0, 0], [0, 0, 0], [1, 0, 0]])).toThrow(/\[0\] and \[1\] coincide/);
    expect(() => new CyclicPath([[0, 0, 0], [NaN, 0, 0], [1, 0, 0]])).toThrow(/controlPoints\[1\].*finite/);
  });

  it('phase wraps into [0, 1) and advances at rate·dt', () => {
    expect(wrapPhase(1.25)).toBeCloseTo(0.25, 12);
    expect(wrapPhase(-0.25)).toBeCloseTo(0.75, 12);
    let ph = 0.1;
    for (let i = 0; i < 120; i++) ph = advancePhase(ph, 0.8, 1 / 60);
    expect(ph).toBeCloseTo(wrapPhase(0.1 + 0.8 * 2), 9);
    fc.assert(fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (x) => { const w = wrapPhase(x); return w >= 0 && w < 1; }));
  });

  it('never returns NaN for any phase on random loops', () => {
    const pt = fc.tuple(fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }));
    fc.assert(fc.property(fc.array(pt, { minLength: 3, maxLength: 7 }), fc.double({ min: -3, max: 3, noNaN: true }), (pts, ph) => {
      let path: CyclicPath;
      try { path = new CyclicPath(pts); } catch { return true; } // coincident neighbours are rejected, by design
      const s = path.sample(ph);
      return [...s.point, ...s.tangent].every(Number.isFinite);
    }), { numRuns: 300 });
  });
});
