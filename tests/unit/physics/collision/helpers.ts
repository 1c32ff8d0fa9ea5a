import type { ShapeDesc } from '../../../../shared/physics/types';
import { quatFromAxisAngle, quatMul, type Quat, type Vec3 } from '../../../../shared/math';
import { ContactManifold, createWorldShape, updateWorldShape, type WorldShape } from '../../../../shared/physics/collision';

/** A shape placed at `position` with `rotation` as its body pose. */
export function place(desc: ShapeDesc, position: Vec3, rotation: Quat = [0, 0, 0, 1], body = 0): WorldShape {
  const s = createWorldShape(desc, { body });
  updateWorldShape(s, position, 0, rotation, 0);
  return s;
}

export const axisAngle = (axis: Vec3, deg: number): Quat => quatFromAxisAngle(axis, (deg * Math.PI) / 180);
export const compose = (...qs: Quat[]): Quat => qs.reduce((a, b) => quatMul(a, b), [0, 0, 0, 1] as Quat);

export const manifold = (): ContactManifold => new ContactManifold();

export function points(m: ContactManifold, which: 'A' | 'B' = 'A'): Vec3[] {
  const src = which === 'A' ? m.pointA : m.pointB;
  const out: Vec3[] = [];
  for (let i = 0; i < m.count; i++) out.push([src[3 * i]!, src[3 * i + 1]!, src[3 * i + 2]!]);
  return out;
}

export const sortPts = (p: Vec3[]): Vec3[] =>
  [...p].sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);

export function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: number, what = ''): void {
  for (let i = 0; i < expected.length; i++) {
    if (!(Math.abs(actual[i]! - expected[i]!) <= tol)) {
      throw new Error(`${what} component ${i}: got ${Array.from(actual).join(', ')}, expected ${Array.from(expected).join(', ')} (tol ${tol})`);
    }
  }
}

/** Invariant of every manifold: pointA − pointB = depth·normal, |normal| = 1. */
export function checkManifoldInvariant(m: ContactManifold, tol = 1e-9): void {
  const n = m.normal;
  const len = Math.hypot(n[0]!, n[1]!, n[2]!);
  if (m.count > 0 && Math.abs(len - 1) > 1e-9) throw new Error(`normal not unit: ${len}`);
  for (let i = 0; i < m.count; i++) {
    for (let c = 0; c < 3; c++) {
      const d = m.pointA[3 * i + c]! - m.pointB[3 * i + c]! - m.depth[i]! * n[c]!;
      if (Math.abs(d) > tol) throw new Error(`point ${i}: pointA − pointB ≠ depth·normal (off by ${d})`);
    }
  }
  const ids = new Set(Array.from(m.featureId.subarray(0, m.count)));
  if (ids.size !== m.count) throw new Error(`feature ids not unique: ${Array.from(m.featureId.subarray(0, m.count)).join(', ')}`);
}
