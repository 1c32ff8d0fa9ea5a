/** Body poses as the preview test hooks return them: name → centre p (m) and rotation q (x, y, z, w). */
export type Poses = Record<string, { p: number[]; q: number[] }>;

/**
 * Largest difference between two sets of body poses: over the centres (m) and, unless `rotations` is
 * false, the quaternion components (unitless). Infinity when either set is missing or a body is absent.
 */
export function maxDiff(a: Poses | null, b: Poses | null, rotations = true): number {
  if (!a || !b) return Infinity;
  let d = 0;
  for (const [name, pa] of Object.entries(a)) {
    const pb = b[name];
    if (!pb) return Infinity;
    for (let i = 0; i < 3; i++) d = Math.max(d, Math.abs(pa.p[i]! - pb.p[i]!));
    if (rotations) for (let i = 0; i < 4; i++) d = Math.max(d, Math.abs(pa.q[i]! - pb.q[i]!));
  }
  return d;
}
