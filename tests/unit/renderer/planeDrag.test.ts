/**
 * The direct drag of a gait path's handle (renderer/src/viewport/planeDrag.ts, issue 15 item 4): the point
 * stays in the path's plane and moves in proportion to the view distance — never thrown metres away when
 * the plane is seen nearly edge-on (the reported bug: 4.3 m for a 40-pixel drag).
 */
import { describe, expect, it } from 'vitest';
import { MIN_FACING, planeDragPoint, startPlaneDrag, type Vec3 } from '../../../renderer/src/viewport/planeDrag';

const norm = (v: Vec3): [number, number, number] => { const l = Math.hypot(...v); return [v[0] / l, v[1] / l, v[2] / l]; };
const dist = (a: Vec3, b: Vec3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** A pinhole camera at `eye` looking at `at` (y up), vertical field of view 50°, 800 px tall: the ray
 *  through the pixel (px, py) from the view's centre. */
function camera(eye: Vec3, at: Vec3) {
  const f = norm([at[0] - eye[0], at[1] - eye[1], at[2] - eye[2]]);
  const r = norm([f[1] * 0 - f[2] * 1, f[2] * 0 - f[0] * 0, f[0] * 1 - f[1] * 0]); // f × up
  const u: Vec3 = [r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]];
  const k = Math.tan((25 * Math.PI) / 180) / 400;
  return {
    eye, forward: f,
    ray: (px: number, py: number): Vec3 => norm([f[0] + k * (px * r[0] - py * u[0]), f[1] + k * (px * r[1] - py * u[1]), f[2] + k * (px * r[2] - py * u[2])]),
  };
}

// The Armed Mine's hand path lies in the plane x = 0; a handle at (0, 0.5, 0.7).
const handle: Vec3 = [0, 0.5, 0.7];
const normal: Vec3 = [1, 0, 0];

describe('direct drag of a path handle in the path plane', () => {
  it('seen face-on, the point follows the cursor in the plane: 40 px at 3 m is about 0.13 m', () => {
    const cam = camera([3, 0.5, 0.7], handle);
    const s = startPlaneDrag(handle, normal, cam.eye, cam.forward);
    expect(s.edgeOn).toBe(false);
    const p = planeDragPoint(s, cam.eye, cam.ray(40, 0))!;
    expect(p[0]).toBeCloseTo(0, 12);
    // 40 px of a 800 px, 50° view at 3 m: 3 · tan 25° / 400 · 40 = 0.140 m.
    expect(dist(p, handle)).toBeCloseTo(3 * Math.tan((25 * Math.PI) / 180) / 10, 3);
  });

  it('moves in proportion to the view distance: twice as far, twice the motion for the same pixels', () => {
    const near = camera([2, 1, 0.2], handle), far = camera([4, 1.5, -0.3], handle);
    const a = planeDragPoint(startPlaneDrag(handle, normal, near.eye, near.forward), near.eye, near.ray(30, 25))!;
    const b = planeDragPoint(startPlaneDrag(handle, normal, far.eye, far.forward), far.eye, far.ray(30, 25))!;
    expect(dist(b, handle) / dist(a, handle)).toBeGreaterThan(1.7);
    expect(dist(b, handle) / dist(a, handle)).toBeLessThan(2.3);
  });

  it('seen nearly edge-on, a 40-pixel drag stays in the plane and under 0.5 m (the intersection would be metres)', () => {
    // The camera 3 m away, 3° off the plane: the ray meets x = 0 far behind the handle.
    const a = (3 * Math.PI) / 180;
    const cam = camera([3 * Math.sin(a), 0.9, 0.7 - 3 * Math.cos(a)], handle);
    const s = startPlaneDrag(handle, normal, cam.eye, cam.forward);
    expect(s.edgeOn).toBe(true);
    for (const [px, py] of [[40, 0], [-40, 0], [0, 40], [28, -28]] as const) {
      const p = planeDragPoint(s, cam.eye, cam.ray(px, py))!;
      expect(Math.abs(p[0])).toBeLessThan(1e-12);
      expect(dist(p, handle)).toBeLessThan(0.5);
      expect(dist(p, handle)).toBeLessThanOrEqual(3.05 * Math.tan((25 * Math.PI) / 180) / 10 + 1e-9);
      // What a bare ray–plane intersection would have done: far more than the cursor moved.
      const d = cam.ray(px, py), t = (0 - cam.eye[0]) / d[0];
      if (px !== 0) expect(Math.abs(t * d[2] + cam.eye[2] - handle[2])).toBeGreaterThan(0.5);
    }
  });

  it('at the threshold angle the plane rule magnifies the cursor motion by at most 1/MIN_FACING', () => {
    // Facing just above MIN_FACING: the plane rule, a bounded magnification.
    const c = Math.acos(MIN_FACING + 0.02);
    const cam = camera([3 * Math.cos(c), 0.5, 0.7 - 3 * Math.sin(c)], handle);
    const s = startPlaneDrag(handle, normal, cam.eye, cam.forward);
    expect(s.edgeOn).toBe(false);
    const p = planeDragPoint(s, cam.eye, cam.ray(10, 0))!;
    expect(Math.abs(p[0])).toBeLessThan(1e-12);
    const cursor = 3 * Math.tan((25 * Math.PI) / 180) / 40; // 10 px at 3 m
    expect(dist(p, handle)).toBeLessThan((cursor / MIN_FACING) * 1.2);
  });

  it('no point for a ray along the view plane or behind the camera', () => {
    const cam = camera([3, 0.5, 0.7], handle);
    const s = startPlaneDrag(handle, normal, cam.eye, cam.forward);
    expect(planeDragPoint(s, cam.eye, [0, 1, 0])).toBeNull();
    expect(planeDragPoint(s, cam.eye, [1, 0, 0])).toBeNull();
  });
});
