import { describe, expect, it } from 'vitest';
import { SteeringLaw, type SteeringLawParams } from '../../../shared/gait/steeringLaw';
import { headingToWorld, steeringAngle } from '../../../shared/gait/steering';
import { random } from '../scenarios/armedMineWorld';

const forward: [number, number, number] = [0, 0, 1];
const law = (p: Partial<SteeringLawParams> = {}) => new SteeringLaw({ gain: 2, maxAngle: 1, window: 0, rateGain: 0, ...p });
const DT = 1 / 60;

describe('steering law without a window or rate term', () => {
  it('is the proportional skew on the heading now, bit for bit (old rig files steer exactly as before)', () => {
    const l = law({ gain: 3, maxAngle: 0.6 });
    const rnd = random(7);
    for (let i = 0; i < 200; i++) {
      const pos: [number, number, number] = [rnd() * 4 - 2, 0.35, rnd() * 4 - 2];
      const yaw = (rnd() - 0.5) * 6, target: [number, number, number] = [rnd() * 10 - 5, 0, rnd() * 10 - 5];
      const d = l.step(pos, yaw, (rnd() - 0.5) * 4, forward, target, 0.7, DT);
      expect(d.skew).toBe(steeringAngle(pos, headingToWorld([0, 0, 0], yaw, forward), { target, gain: 3, maxAngle: 0.6 }));
      expect(d.heading).toBe(yaw);
    }
    expect(l.snapshot().yaw).toEqual([]); // no state kept
  });

  it('gives no skew without a target', () => {
    expect(law().step([0, 0, 0], 0.3, 1, forward, null, 0.7, DT).skew).toBe(0);
  });
});

describe('stroke-averaged heading (window)', () => {
  it('cancels a wobble with the gait period, whatever its shape: the heading seen is the mean course', () => {
    const rate = 0.75, n = Math.round(1 / rate / DT); // 80 steps per cycle
    const l = law({ window: 1 });
    const course = 0.2;
    let last = NaN;
    for (let i = 0; i < 5 * n; i++) {
      const ph = (2 * Math.PI * i) / n;
      const yaw = course + 0.3 * Math.sin(ph) + 0.1 * Math.sin(3 * ph + 1); // ±0.4 rad of per-stroke wobble
      last = l.step([0, 0, 0], yaw, 0, forward, [0, 0, 5], rate, DT).heading;
      if (i >= n) expect(last).toBeCloseTo(course, 12);
    }
    expect(last).toBeCloseTo(course, 12);
  });

  it('starts as if the heading had been held (no jump on the first steps) and follows a turn with one window of delay', () => {
    const l = law({ window: 1 });
    expect(l.step([0, 0, 0], 0.5, 0, forward, [0, 0, 5], 1, DT).heading).toBe(0.5);
    // Turn at a constant 0.6 rad/s: the one-cycle mean lags the heading by half a window (0.5 s → 0.3 rad).
    let yaw = 0.5, h = 0;
    for (let i = 0; i < 180; i++) { yaw += 0.6 * DT; h = l.step([0, 0, 0], yaw, 0.6, forward, [0, 0, 5], 1, DT).heading; }
    expect(yaw - h).toBeCloseTo(0.6 * (60 - 1) * DT / 2, 9);
  });

  it('averages across ±π without jumping (a heading of π and of −π is one heading)', () => {
    const l = law({ window: 1 });
    let h = 0;
    for (let i = 0; i < 120; i++) h = l.step([0, 0, 0], i % 2 ? Math.PI - 0.01 : -Math.PI + 0.01, 0, forward, [0, 0, 5], 1, DT).heading;
    expect(Math.cos(h)).toBeCloseTo(-1, 3); // facing −Z, not +Z
  });

  it('keeps working when the window changes length (rate edited): finite, and back on the mean within a window', () => {
    const l = law({ window: 1 });
    for (let i = 0; i < 100; i++) l.step([0, 0, 0], 0.3, 0, forward, [0, 0, 5], 1, DT);
    for (let i = 0; i < 200; i++) {
      const h = l.step([0, 0, 0], 0.3, 0, forward, [0, 0, 5], 2, DT).heading;
      expect(h).toBeCloseTo(0.3, 12);
    }
  });
});

describe('heading-rate term', () => {
  it('turns the path against a spin: a body yawing toward +X with the target dead ahead is skewed back toward −X by gain·rateGain·ω', () => {
    const l = law({ gain: 2, rateGain: 0.05 });
    const d = l.step([0, 0, 0], 0, 2, forward, [0, 0, 5], 0.7, DT);
    expect(d.heading).toBeCloseTo(0.1, 12);
    expect(d.skew).toBeCloseTo(-2 * 0.1, 12);
    expect(l.step([0, 0, 0], 0, -2, forward, [0, 0, 5], 0.7, DT).skew).toBeCloseTo(2 * 0.1, 12);
  });
});

describe('state', () => {
  it('restore(snapshot()) reproduces the future bit for bit, in the same law or a new one', () => {
    const a = law({ window: 1, rateGain: 0.02 });
    const rnd = random(3);
    const inputs = Array.from({ length: 400 }, () => ({ yaw: (rnd() - 0.5) * 7, rate: (rnd() - 0.5) * 3 }));
    for (let i = 0; i < 150; i++) a.step([0, 0, 0], inputs[i]!.yaw, inputs[i]!.rate, forward, [1, 0, 4], 0.7, DT);
    const snap = a.snapshot();
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap); // plain data
    const run = (l: SteeringLaw) => inputs.slice(150).map((x) => l.step([0, 0, 0], x.yaw, x.rate, forward, [1, 0, 4], 0.7, DT).skew);
    const first = run(a);
    a.restore(snap);
    expect(run(a)).toEqual(first);
    const b = law({ window: 1, rateGain: 0.02 });
    b.restore(snap);
    expect(run(b)).toEqual(first);
  });
});
