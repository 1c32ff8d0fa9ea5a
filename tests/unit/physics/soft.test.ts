import { describe, expect, it } from 'vitest';
import { makeSoft, makeSoftHertz } from '../../../shared/physics/soft';

describe('makeSoft(kp, kv, dt)', () => {
  const h = 1 / 60;
  it('is the implicit-Euler spring: one step of a unit-K row equals the closed form', () => {
    // Row with K = 1/m (m = 2 kg), x = 0.1 m, v = 0: implicit Euler gives
    // v₁ = (v₀ − h·k/m·x₀) / (1 + h·c/m + h²·k/m).
    const m = 2, kp = 300, kv = 7, x0 = 0.1, v0 = 0;
    const s = makeSoft(kp, kv, h);
    const K = 1 / m;
    const lambda = -(v0 + s.biasRate * x0) / (K + s.softness);
    const v1 = v0 + K * lambda;
    const expected = (v0 - (h * kp * x0) / m) / (1 + (h * kv) / m + (h * h * kp) / m);
    expect(v1).toBeCloseTo(expected, 12);
  });
  it('limit cases: rigid, pure damper, undamped spring, nothing', () => {
    const rigid = makeSoft(1e12, 1, h);
    expect(rigid.biasRate * h).toBeCloseTo(1, 6);
    expect(rigid.softness).toBeLessThan(1e-8);
    const damper = makeSoft(0, 5, h);
    expect(damper.biasRate).toBe(0);
    expect(damper.softness).toBeCloseTo(1 / (h * 5), 12);
    const spring = makeSoft(100, 0, h);
    expect(spring.biasRate).toBeCloseTo(1 / h, 9);
    expect(spring.softness).toBeCloseTo(1 / (h * h * 100), 9);
    const none = makeSoft(0, 0, h);
    expect(none.softness).toBe(Infinity);
    expect(1 / (3 + none.softness)).toBe(0);
  });
  it('is monotone: stiffer → less compliant, and biasRate·h ∈ [0, 1]', () => {
    let prev = Infinity;
    for (const kp of [0.1, 1, 10, 100, 1e3, 1e4]) {
      const s = makeSoft(kp, 3, h);
      expect(s.softness).toBeLessThan(prev);
      expect(s.biasRate * h).toBeGreaterThanOrEqual(0);
      expect(s.biasRate * h).toBeLessThanOrEqual(1);
      prev = s.softness;
    }
  });
  it('makeSoftHertz matches Box2D: 0 Hz is rigid, factors sum to 1', () => {
    const r = makeSoftHertz(0, 1, h);
    expect(r.massScale).toBe(1); expect(r.impulseScale).toBe(0);
    const s = makeSoftHertz(30, 10, h);
    expect(s.massScale + s.impulseScale).toBeCloseTo(1, 12);
    expect(s.biasRate).toBeCloseTo((2 * Math.PI * 30) / (20 + h * 2 * Math.PI * 30), 12);
  });
});
