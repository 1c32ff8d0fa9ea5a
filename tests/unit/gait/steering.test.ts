import { describe, expect, it } from 'vitest';
import { CyclicPath } from '../../../shared/gait/cyclicPath';
import {
  headingYaw, pathPointToWorld, pathTravelDirection, signedYawBetween, steeringAngle, worldPathFrame, yawQuat,
} from '../../../shared/gait/steering';
import { quatFromAxisAngle, quatMul } from '../../../shared/math/quat';

const DEG = Math.PI / 180;
// Pull stroke: on the floor (y = −0.33) the hand moves from z = 0.9 back to z = 0.45 → travel +Z.
const stroke: [number, number, number][] = [[0.2, -0.3, 0.9], [0.2, -0.33, 0.45], [0.2, -0.1, 0.25], [0.2, 0.25, 0.6]];

describe('heading (yaw only)', () => {
  it('is the yaw of a pure yaw rotation, and ignores roll and pitch', () => {
    for (const yaw of [-2.5, -1, 0, 0.4, 1.2, 3]) {
      expect(headingYaw(yawQuat(yaw))).toBeCloseTo(yaw, 9);
      const rolled = quatMul(yawQuat(yaw), quatFromAxisAngle([0, 0, 1], 1.3));
      expect(headingYaw(rolled)).toBeCloseTo(yaw, 9);
      const pitched = quatMul(yawQuat(yaw), quatFromAxisAngle([1, 0, 0], -1.4));
      expect(headingYaw(pitched)).toBeCloseTo(yaw, 9);
    }
  });

  it('falls back to the forward axis for a half turn about a horizontal axis (upside down)', () => {
    const upsideDown = quatFromAxisAngle([1, 0, 0], Math.PI); // forward now −Z
    expect(Math.abs(headingYaw(upsideDown))).toBeCloseTo(Math.PI, 6);
  });

  it('keeps a rolled body\'s path on the floor: the lowest point stays at the same height', () => {
    const path = new CyclicPath(stroke);
    const lowest = Math.min(...path.polyline(64).map((p) => p[1]));
    const rolled = quatFromAxisAngle([0, 0, 1], Math.PI / 2);
    const frame = worldPathFrame([0, 0.35, 0], rolled, [0, 0, 1], { target: null, gain: 1, maxAngle: 1 });
    const worldLowest = Math.min(...path.polyline(64).map((p) => pathPointToWorld(frame, p)[1]));
    expect(worldLowest).toBeCloseTo(0.35 + lowest, 9);
  });
});

describe('path travel direction', () => {
  it('is opposite to the hand\'s stroke along the floor', () => {
    const t = pathTravelDirection(new CyclicPath(stroke));
    expect(t[2]).toBeGreaterThan(0.99);
    const reversed = pathTravelDirection(new CyclicPath([...stroke].reverse()));
    expect(reversed[2]).toBeLessThan(-0.99);
  });
});

describe('steering skew', () => {
  const travel: [number, number, number] = [0, 0, 1];
  it('leaves the path unchanged without a target, or with the target straight ahead', () => {
    expect(steeringAngle([0, 0, 0], travel, { target: null, gain: 1, maxAngle: 1 })).toBe(0);
    expect(steeringAngle([0, 0, 0], travel, { target: [0, 0, 5], gain: 1, maxAngle: 1 })).toBeCloseTo(0, 12);
    expect(steeringAngle([0, 0.3, 1], travel, { target: [0, 0, 1], gain: 1, maxAngle: 1 })).toBe(0); // at the root
    const path = new CyclicPath(stroke);
    const f = worldPathFrame([1, 0.35, 2], yawQuat(0), pathTravelDirection(path), { target: [1, 0, 9], gain: 2, maxAngle: 1 });
    for (const p of stroke) {
      const w = pathPointToWorld(f, p);
      expect(w[0]).toBeCloseTo(1 + p[0], 2); expect(w[1]).toBeCloseTo(0.35 + p[1], 12); expect(w[2]).toBeCloseTo(2 + p[2], 2);
    }
  });

  it('rotates by min(gain·90°, maxAngle) toward a target 90° to the side', () => {
    expect(steeringAngle([0, 0, 0], travel, { target: [5, 0, 0], gain: 0.5, maxAngle: 80 * DEG })).toBeCloseTo(45 * DEG, 9);
    expect(steeringAngle([0, 0, 0], travel, { target: [5, 0, 0], gain: 1.5, maxAngle: 60 * DEG })).toBeCloseTo(60 * DEG, 9);
    expect(steeringAngle([0, 0, 0], travel, { target: [-5, 0, 0], gain: 0.5, maxAngle: 80 * DEG })).toBeCloseTo(-45 * DEG, 9);
  });

  it('turns the world path about the root\'s vertical so that its travel direction points toward the target', () => {
    const path = new CyclicPath(stroke);
    const local = pathTravelDirection(path);
    const f = worldPathFrame([0, 0.35, 0], yawQuat(0.3), local, { target: [10, 0, 0], gain: 1, maxAngle: Math.PI });
    // Travel in the world = yaw+skew applied to the local travel: should point at +X (the target).
    const a = pathPointToWorld(f, [0, 0, 0]), b = pathPointToWorld(f, local);
    const dir: [number, number, number] = [b[0] - a[0], 0, b[2] - a[2]];
    expect(Math.abs(signedYawBetween(dir, [1, 0, 0]))).toBeLessThan(1e-9);
    // Rotation about the vertical through the root keeps distances to the root axis and heights.
    for (const p of stroke) {
      const w = pathPointToWorld(f, p);
      expect(Math.hypot(w[0], w[2])).toBeCloseTo(Math.hypot(p[0], p[2]), 9);
      expect(w[1]).toBeCloseTo(0.35 + p[1], 12);
    }
  });

  it('with a pivot ahead of the stroke, shifts the stroke to the far side of the target and angles it toward it', () => {
    const path = new CyclicPath(stroke);
    const local = pathTravelDirection(path);
    const pivot: [number, number, number] = [0.2, 0, 1.4];
    const f = worldPathFrame([0, 0.35, 0], yawQuat(0), local, { target: [5, 0, 0], gain: 1, maxAngle: 0.5 }, pivot);
    expect(f.skew).toBeCloseTo(0.5, 12);
    // The pivot itself does not move; the floor stroke (z < pivot) moves toward −X, away from the target.
    const p = pathPointToWorld(f, pivot);
    expect(p[0]).toBeCloseTo(0.2, 12); expect(p[2]).toBeCloseTo(1.4, 12);
    const floor = pathPointToWorld(f, [0.2, -0.33, 0.45]);
    expect(floor[0]).toBeLessThan(0.2 - 0.4);
    // Its direction still turns toward the target by the skew.
    const a = pathPointToWorld(f, [0, 0, 0]), b = pathPointToWorld(f, local);
    expect(signedYawBetween([0, 0, 1], [b[0] - a[0], 0, b[2] - a[2]])).toBeCloseTo(0.5, 9);
  });
});
