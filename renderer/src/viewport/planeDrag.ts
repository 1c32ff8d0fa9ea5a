/**
 * Dragging a handle that must stay in a plane (a gait path's point in the path's plane): where the
 * pointer's view ray puts it. Pure numbers (no three.js), so the rule is unit-tested headless.
 *
 *  - Seen at a fair angle (|n·d| ≥ MIN_FACING for the ray through the handle at the press), the handle
 *    goes where the ray meets the plane: it stays under the cursor and moves in proportion to the view
 *    distance (at most 1/MIN_FACING times the motion on the camera-facing plane through it).
 *  - Seen edge-on, that intersection runs off toward the horizon (a few pixels would throw the point
 *    metres away): the ray's point on the camera-facing plane through the handle — proportional to the
 *    view distance — is projected onto the plane along its normal instead. Still in the plane, never
 *    farther than the cursor moved there.
 * A ray that meets the plane behind the camera, or nearly along it, takes the second rule too.
 */
import { dot, sub } from '../../../shared/math/vec3';

export type Vec3 = readonly [number, number, number];

/** |n·d| below which the plane counts as seen edge-on (~70° from facing the camera). */
export const MIN_FACING = 0.35;

const along = (o: Vec3, d: Vec3, t: number): [number, number, number] => [o[0] + d[0] * t, o[1] + d[1] * t, o[2] + d[2] * t];
const unit = (v: Vec3): [number, number, number] => { const l = Math.hypot(v[0], v[1], v[2]); return l > 0 ? [v[0] / l, v[1] / l, v[2] / l] : [0, 0, 0]; };

export interface PlaneDragStart {
  /** The handle's world position at the press (on the plane). */
  point: Vec3;
  /** The plane's normal (world; normalised here). */
  normal: Vec3;
  /** The camera's forward axis (world). */
  forward: Vec3;
  /** Whether the plane is seen edge-on from where the camera is: the projected rule for the whole drag. */
  edgeOn: boolean;
}

/** The drag's constants, from the press: `eye` is the camera's position. */
export function startPlaneDrag(point: Vec3, normal: Vec3, eye: Vec3, forward: Vec3): PlaneDragStart {
  const n = unit(normal), toPoint = unit(sub(point, eye));
  return { point, normal: n, forward: unit(forward), edgeOn: Math.abs(dot(n, toPoint)) < MIN_FACING };
}

/** Where the view ray (origin, unit direction) puts the handle; null when it cannot (ray parallel to the view plane). */
export function planeDragPoint(s: PlaneDragStart, origin: Vec3, direction: Vec3): [number, number, number] | null {
  const d = unit(direction), n = s.normal;
  const dn = dot(d, n);
  if (!s.edgeOn && Math.abs(dn) >= 0.5 * MIN_FACING) {
    const t = dot(sub(s.point, origin), n) / dn;
    if (t > 0) return along(origin, d, t);
  }
  // The camera-facing plane through the handle, then onto the drag plane along its normal.
  const df = dot(d, s.forward);
  if (!(Math.abs(df) > 1e-9)) return null;
  const t = dot(sub(s.point, origin), s.forward) / df;
  if (!(t > 0)) return null;
  const q = along(origin, d, t);
  const off = dot(sub(q, s.point), n);
  return [q[0] - n[0] * off, q[1] - n[1] * off, q[2] - n[2] * off];
}
