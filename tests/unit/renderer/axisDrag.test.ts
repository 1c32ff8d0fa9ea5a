/**
 * The drag of a slide range's end along its axis (renderer/src/viewport/axisDrag.ts): the handle goes to the
 * axis point nearest the pointer's ray, so it stays under a cursor that moves along the drawn axis and moves
 * in proportion to the view distance; an axis seen end-on never throws it farther than the cursor moved.
 */
import { describe, expect, it } from 'vitest';
import { MAX_ALONG_VIEW, axisDragOffset, startAxisDrag, type Vec3 } from '../../../renderer/src/viewport/axisDrag';

const norm = (v: Vec3): [number, number, number] => { const l = Math.hypot(...v); return [v[0] / l, v[1] / l, v[2] / l]; };
const add = (a: Vec3, b: Vec3, s = 1): [number, number, number] => [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s];
const TAN = Math.tan((25 * Math.PI) / 180);

/** A pinhole camera at `eye` looking at `at` (y up), vertical field of view 50°, 800 px tall: the ray
 *  through the pixel (px, py) from the view's centre. */
function camera(eye: Vec3, at: Vec3) {
  const f = norm([at[0] - eye[0], at[1] - eye[1], at[2] - eye[2]]);
  const r = norm([-f[2], 0, f[0]]); // f × up
  const u: Vec3 = [r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]];
  const k = TAN / 400;
  return {
    eye, forward: f,
    ray: (px: number, py: number): Vec3 => norm([f[0] + k * (px * r[0] - py * u[0]), f[1] + k * (px * r[1] - py * u[1]), f[2] + k * (px * r[2] - py * u[2])]),
  };
}

// A knee's slide axis (world X through the anchor at hip height), its max handle 0.12 m along it.
const anchor: Vec3 = [0, 0.5, 0];
const axis: Vec3 = [1, 0, 0];
const handle: Vec3 = add(anchor, axis, 0.12);

describe('drag of a slide end along its axis', () => {
  it('seen side-on at 3 m, 40 px along the drawn axis move the end 3·tan 25°/400·40 = 0.140 m', () => {
    const cam = camera([0.12, 0.5, 3], handle); // looking straight at the handle, the axis across the view
    const s = startAxisDrag(handle, axis, cam.eye, cam.forward);
    expect(s.endOn).toBe(false);
    expect(axisDragOffset(s, cam.eye, cam.ray(0, 0))).toBeCloseTo(0, 12);
    expect(axisDragOffset(s, cam.eye, cam.ray(40, 0))).toBeCloseTo((3 * TAN * 40) / 400, 12);
    expect(axisDragOffset(s, cam.eye, cam.ray(-40, 0))).toBeCloseTo((-3 * TAN * 40) / 400, 12);
    // Twice as far, twice the motion for the same pixels.
    const far = camera([0.12, 0.5, 6], handle);
    const sf = startAxisDrag(handle, axis, far.eye, far.forward);
    expect(axisDragOffset(sf, far.eye, far.ray(40, 0))! / axisDragOffset(s, cam.eye, cam.ray(40, 0))!).toBeCloseTo(2, 9);
  });

  it('the cursor off the drawn axis counts by its component along it (25 px across change it by < 0.1 %)', () => {
    const cam = camera([0.12, 0.5, 3], handle);
    const s = startAxisDrag(handle, axis, cam.eye, cam.forward);
    const on = axisDragOffset(s, cam.eye, cam.ray(40, 0))!;
    const off = axisDragOffset(s, cam.eye, cam.ray(40, 25))!;
    expect(Math.abs(off - on) / on).toBeLessThan(1e-3);
    expect(axisDragOffset(s, cam.eye, cam.ray(0, 60))).toBeCloseTo(0, 12);
  });

  it('on an oblique axis (50° from the view) the end stays exactly under a cursor on the drawn axis', () => {
    const eye: Vec3 = [-1.2, 1.4, 2.2];
    const a = norm([1, 0.2, -0.3]);
    const view = norm([handle[0] - eye[0], handle[1] - eye[1], handle[2] - eye[2]]);
    const angle = (Math.acos(a[0] * view[0] + a[1] * view[1] + a[2] * view[2]) * 180) / Math.PI;
    expect(angle).toBeGreaterThan(45);
    expect(angle).toBeLessThan(55);
    const s = startAxisDrag(handle, a, eye, view);
    expect(s.endOn).toBe(false);
    for (const u of [-0.3, -0.05, 0.01, 0.2, 0.6]) {
      const p = add(handle, a, u);
      expect(axisDragOffset(s, eye, [p[0] - eye[0], p[1] - eye[1], p[2] - eye[2]])).toBeCloseTo(u, 9);
    }
  });

  it('a non-unit axis is normalised: offsets are in world units along it', () => {
    const cam = camera([0.12, 0.5, 3], handle);
    const s = startAxisDrag(handle, [5, 0, 0], cam.eye, cam.forward);
    expect(axisDragOffset(s, cam.eye, cam.ray(40, 0))).toBeCloseTo((3 * TAN * 40) / 400, 12);
  });

  it('seen end-on (10° from the view) the end moves no farther than the cursor does on the facing plane', () => {
    // The axis nearly points at the camera: nearest points would run 1/sin 10° ≈ 5.8× the cursor's motion.
    const tilt = (10 * Math.PI) / 180;
    const a: Vec3 = [Math.sin(tilt), 0, Math.cos(tilt)];
    const cam = camera([0.12, 0.5, 3], handle);
    const s = startAxisDrag(handle, a, cam.eye, cam.forward);
    expect(Math.abs(a[2])).toBeGreaterThan(MAX_ALONG_VIEW);
    expect(s.endOn).toBe(true);
    const cursor = (3 * TAN * 40) / 400; // 40 px on the facing plane through the handle
    const u = axisDragOffset(s, cam.eye, cam.ray(40, 0))!;
    expect(Math.abs(u)).toBeLessThanOrEqual(cursor + 1e-12);
    expect(u).toBeCloseTo(cursor * Math.sin(tilt), 9); // the cursor's motion projected on the axis
    // Where the nearest-point rule would have thrown it.
    const nearest = startAxisDrag(handle, a, cam.eye, cam.forward);
    nearest.endOn = false;
    expect(Math.abs(axisDragOffset(nearest, cam.eye, cam.ray(40, 0))!)).toBeGreaterThan(4 * cursor);
  });

  it('a ray that cannot reach the facing plane gives no offset (null), the drag stays put', () => {
    const cam = camera([0.12, 0.5, 3], handle);
    const s = startAxisDrag(handle, [0, 0, 1], cam.eye, cam.forward); // end-on exactly
    expect(axisDragOffset(s, cam.eye, [1, 0, 0])).toBeNull(); // parallel to the facing plane
    expect(axisDragOffset(s, cam.eye, [0, 0, 1])).toBeNull(); // pointing away from it (behind the camera)
  });
});
