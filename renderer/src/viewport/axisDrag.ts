/**
 * Dragging a handle that must stay on a line (the end of a joint's slide range, on its slide axis): where
 * the pointer's view ray puts it. Pure numbers (no three.js), so the rule is unit-tested headless; the
 * plane counterpart is planeDrag.ts.
 *
 *  - Seen at a fair angle (|a·v| ≤ MAX_ALONG_VIEW for the view direction v toward the handle at the press),
 *    the handle goes to the axis point nearest the view ray (the closest points of two lines). For a pointer
 *    on the axis as drawn on screen that point is exactly under the cursor, so the handle follows it.
 *  - Seen end-on (the axis points nearly at the camera), that nearest point runs off along the axis for a
 *    pixel's change of the ray: the ray's point on the camera-facing plane through the handle is projected
 *    onto the axis instead — never farther than the cursor moved on that plane.
 * A ray whose nearest point lies behind the camera takes the second rule too.
 */
import { dot, sub } from '../../../shared/math/vec3';

export type Vec3 = readonly [number, number, number];

/** |a·v| above which the axis counts as seen end-on (~20° from the view direction). */
export const MAX_ALONG_VIEW = 0.94;

const unit = (v: Vec3): [number, number, number] => { const l = Math.hypot(v[0], v[1], v[2]); return l > 0 ? [v[0] / l, v[1] / l, v[2] / l] : [0, 0, 0]; };

export interface AxisDragStart {
  /** A point on the axis (world): the handle at the press; offsets are measured from it. */
  point: Vec3;
  /** The axis direction (world; normalised here). */
  axis: Vec3;
  /** The camera's forward axis (world). */
  forward: Vec3;
  /** Whether the axis is seen end-on from where the camera is: the projected rule for the whole drag. */
  endOn: boolean;
}

/** The drag's constants, from the press: `eye` is the camera's position. */
export function startAxisDrag(point: Vec3, axis: Vec3, eye: Vec3, forward: Vec3): AxisDragStart {
  const a = unit(axis), toPoint = unit(sub(point, eye));
  return { point, axis: a, forward: unit(forward), endOn: Math.abs(dot(a, toPoint)) > MAX_ALONG_VIEW };
}

/**
 * Signed distance along the axis (world units, from `s.point`) where the view ray (origin, direction) puts
 * the handle; null when it cannot (a ray parallel to the camera-facing plane).
 */
export function axisDragOffset(s: AxisDragStart, origin: Vec3, direction: Vec3): number | null {
  const d = unit(direction), a = s.axis;
  const w = sub(s.point, origin);
  if (!s.endOn) {
    // Closest points of the axis P + a·u and the ray O + d·t (both unit): b = a·d, 1 − b² > 0 off-parallel.
    const b = dot(a, d), aw = dot(a, w), dw = dot(d, w);
    const den = 1 - b * b;
    if (den > 1e-9) {
      const u = (b * dw - aw) / den;
      const t = (dw - b * aw) / den;
      if (t > 0) return u;
    }
  }
  const df = dot(d, s.forward);
  if (!(Math.abs(df) > 1e-9)) return null;
  const t = dot(w, s.forward) / df;
  if (!(t > 0)) return null;
  const q: Vec3 = [origin[0] + d[0] * t, origin[1] + d[1] * t, origin[2] + d[2] * t];
  return dot(sub(q, s.point), a);
}
