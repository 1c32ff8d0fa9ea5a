/**
 * Joint limit shapes as vertex lists in the joint frame (frame A: X = twist / hinge axis, Y = the
 * reference angles are measured from), pure so they are tested without a GPU:
 *  - hinge arc and twist fan: the sector θ ∈ [min, max] in the YZ plane, θ measured from +Y toward +Z
 *    (right-handed about X: rotating Y by θ about X gives cos θ·Y + sin θ·Z);
 *  - swing cone: the elliptical cone about X whose half-angle toward ±Y is the swing about Z and toward ±Z
 *    the swing about Y (a swing about Z tilts X toward Y). Direction φ around the axis has the half-angle
 *    θ(φ) = 1 / √((cos φ / s_z)² + (sin φ / s_y)²), the polar form of that ellipse.
 */

export interface FanGeometry {
  /** Triangle fan as a flat triangle list (apex, rim i, rim i+1 …), xyz. */
  triangles: Float32Array;
  /** The rim as a line strip, xyz. */
  rim: Float32Array;
}

/** Segments per radian of arc, so a 10° arc and a 300° arc look equally smooth. */
const PER_RAD = 16;

export function sectorGeometry(min: number, max: number, radius: number): FanGeometry {
  const n = Math.max(2, Math.ceil((max - min) * PER_RAD));
  const rim = new Float32Array(3 * (n + 1));
  for (let i = 0; i <= n; i++) {
    const t = min + ((max - min) * i) / n;
    rim[3 * i] = 0; rim[3 * i + 1] = radius * Math.cos(t); rim[3 * i + 2] = radius * Math.sin(t);
  }
  return { triangles: fan(rim), rim };
}

/** Point on the sector's rim at angle θ (for handles). */
export const sectorPoint = (theta: number, radius: number): [number, number, number] => [0, radius * Math.cos(theta), radius * Math.sin(theta)];

/** Angle of a point (frame coordinates) about X, from +Y toward +Z: the inverse of sectorPoint. */
export const angleAboutX = (p: readonly number[]): number => Math.atan2(p[2]!, p[1]!);

export function swingHalfAngle(phi: number, swingY: number, swingZ: number): number {
  const c = Math.cos(phi) / swingZ, s = Math.sin(phi) / swingY;
  return 1 / Math.sqrt(c * c + s * s);
}

export function coneGeometry(swingY: number, swingZ: number, length: number, segments = 48): FanGeometry {
  const rim = new Float32Array(3 * (segments + 1));
  for (let i = 0; i <= segments; i++) {
    const phi = (2 * Math.PI * i) / segments;
    // Past 90° the cone opens backwards; cap the drawn half-angle a little under π so it stays a surface.
    const theta = Math.min(swingHalfAngle(phi, swingY, swingZ), Math.PI * 0.97);
    rim[3 * i] = length * Math.cos(theta);
    rim[3 * i + 1] = length * Math.sin(theta) * Math.cos(phi);
    rim[3 * i + 2] = length * Math.sin(theta) * Math.sin(phi);
  }
  return { triangles: fan(rim), rim };
}

function fan(rim: Float32Array): Float32Array {
  const n = rim.length / 3 - 1;
  const out = new Float32Array(9 * n);
  for (let i = 0; i < n; i++) {
    out.set([0, 0, 0], 9 * i);
    out.set(rim.subarray(3 * i, 3 * i + 3), 9 * i + 3);
    out.set(rim.subarray(3 * i + 3, 3 * i + 6), 9 * i + 6);
  }
  return out;
}

/** The angles a drawn sector actually spans, read back from its rim (what the e2e hook reports). */
export function rimAngles(rim: ArrayLike<number>): { min: number; max: number } {
  const n = rim.length / 3;
  const first = angleAboutX([rim[0]!, rim[1]!, rim[2]!]);
  let prev = first, unwrapped = first, lo = first, hi = first;
  for (let i = 1; i < n; i++) {
    const a = angleAboutX([rim[3 * i]!, rim[3 * i + 1]!, rim[3 * i + 2]!]);
    let d = a - prev;
    if (d > Math.PI) d -= 2 * Math.PI;
    if (d < -Math.PI) d += 2 * Math.PI;
    unwrapped += d; prev = a;
    lo = Math.min(lo, unwrapped); hi = Math.max(hi, unwrapped);
  }
  return { min: lo, max: hi };
}
