/** Righting (shared/gait/controller.ts applyRighting): how the path's world frame turns and leans with a tipped root. */
import { describe, expect, it } from 'vitest';
import { applyRighting, rightingWeight, type RightingParams } from '../../../shared/gait/controller';
import { pathPointToWorld, type WorldPathFrame } from '../../../shared/gait/steering';
import { quatFromAxisAngle, quatRotate } from '../../../shared/math/quat';

const R: RightingParams = { start: 0.4, full: 0.8, follow: 0.25 };
const frame = (): WorldPathFrame => ({ yaw: 0.3, skew: 0.2, origin: [1, 0.35, 2], pivot: [0, 0, 0.7] });

describe('righting', () => {
  it('weight: 0 up to start, linear to 1 at full', () => {
    expect(rightingWeight(0.4, R)).toBe(0);
    expect(rightingWeight(0.6, R)).toBeCloseTo(0.5, 12);
    expect(rightingWeight(0.8, R)).toBe(1);
    expect(rightingWeight(3, R)).toBe(1);
  });

  it('a root tilted less than start leaves the frame exactly as it was (the crawl is bit for bit the same)', () => {
    const f = frame();
    applyRighting(f, quatFromAxisAngle([1, 0, 0], 0.39), R);
    expect(f).toEqual(frame());
  });

  it('tipped fully toward +x: the path faces +x, has no skew, and leans with the body by follow × tilt', () => {
    const tilt = 1.2; // rotation about −z tips +Y toward +x
    const f = frame();
    applyRighting(f, quatFromAxisAngle([0, 0, -1], tilt), R);
    expect(f.yaw).toBeCloseTo(Math.PI / 2, 12);
    expect(f.skew).toBe(0);
    // The path turns with the body: a point straight below the root, 0.4 m down, swings to the high side
    // (−x) by sin(follow·tilt)·0.4, as the body's own "down" does.
    const p = pathPointToWorld(f, [0, -0.4, 0]);
    expect(p[0] - 1).toBeCloseTo(-0.4 * Math.sin(R.follow * tilt), 12);
    expect(p[1] - 0.35).toBeCloseTo(-0.4 * Math.cos(R.follow * tilt), 12);
    expect(p[2] - 2).toBeCloseTo(0, 12);
    // A point ahead on the floor (+z in the path frame) lands on the +x side, lowered by the lean.
    const q = pathPointToWorld(f, [0, -0.35, 1]);
    const a = R.follow * tilt;
    expect(q[0] - 1).toBeCloseTo(Math.cos(a) - 0.35 * Math.sin(a), 12);
    expect(q[1]).toBeCloseTo(0.35 - 0.35 * Math.cos(a) - Math.sin(a), 12);
  });

  it('half way between start and full: half the turn, half the lean, half the skew', () => {
    const tilt = 0.6;
    const f = frame();
    const rot = quatFromAxisAngle([1, 0, 0], tilt); // tips +Y toward +z... rotation about +x tips +Y toward +z
    const up = quatRotate(rot, [0, 1, 0]);
    applyRighting(f, rot, R);
    const lean = Math.atan2(up[0], up[2]);
    expect(f.yaw).toBeCloseTo(0.3 + 0.5 * (lean - 0.3), 12);
    expect(f.skew).toBeCloseTo(0.1, 12);
    const t = f.tilt!;
    expect(2 * Math.acos(Math.min(1, Math.abs(t[3])))).toBeCloseTo(0.5 * R.follow * tilt, 12);
  });

  it('upside down exactly: no side is lower — heading kept, no lean, skew faded', () => {
    const f = frame();
    applyRighting(f, quatFromAxisAngle([1, 0, 0], Math.PI), R);
    expect(f.yaw).toBe(0.3);
    expect(f.tilt).toBeUndefined();
    expect(f.skew).toBe(0);
  });
});
