/** The reusable contact manifold and the small writers every narrow-phase routine shares. */
import { MAX_MANIFOLD_POINTS, type ContactManifoldData } from './types';

export class ContactManifold implements ContactManifoldData {
  count = 0;
  readonly normal = new Float64Array(3);
  readonly pointA = new Float64Array(3 * MAX_MANIFOLD_POINTS);
  readonly pointB = new Float64Array(3 * MAX_MANIFOLD_POINTS);
  readonly depth = new Float64Array(MAX_MANIFOLD_POINTS);
  readonly featureId = new Uint32Array(MAX_MANIFOLD_POINTS);
}

export function setNormal(m: ContactManifoldData, x: number, y: number, z: number): void {
  m.normal[0] = x; m.normal[1] = y; m.normal[2] = z;
}

/** Append a point given its position on A's surface and its depth; pointB = pointA − depth·normal.
 *  The normal must already be set. */
export function addPointA(m: ContactManifoldData, ax: number, ay: number, az: number, depth: number, id: number): void {
  const i = m.count;
  if (i >= MAX_MANIFOLD_POINTS) return;
  const n = m.normal, k = 3 * i;
  m.pointA[k] = ax; m.pointA[k + 1] = ay; m.pointA[k + 2] = az;
  m.pointB[k] = ax - depth * n[0]!; m.pointB[k + 1] = ay - depth * n[1]!; m.pointB[k + 2] = az - depth * n[2]!;
  m.depth[i] = depth;
  m.featureId[i] = id >>> 0;
  m.count = i + 1;
}

/** Append a point given its position on B's surface; pointA = pointB + depth·normal. */
export function addPointB(m: ContactManifoldData, bx: number, by: number, bz: number, depth: number, id: number): void {
  const n = m.normal;
  addPointA(m, bx + depth * n[0]!, by + depth * n[1]!, bz + depth * n[2]!, depth, id);
}

/** Swap the roles of A and B in place (the routine ran with the arguments exchanged). */
export function flipManifold(m: ContactManifoldData): void {
  const n = m.normal;
  n[0] = -n[0]!; n[1] = -n[1]!; n[2] = -n[2]!;
  const a = m.pointA, b = m.pointB;
  for (let k = 0; k < 3 * m.count; k++) { const t = a[k]!; a[k] = b[k]!; b[k] = t; }
}
