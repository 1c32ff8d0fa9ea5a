/**
 * Narrow-phase dispatch: picks the routine for a pair of shape kinds. Routines are written for one order
 * (lower kind first); the other order runs them with the arguments swapped and flips the manifold, so
 * the normal always points from the first argument to the second.
 *
 * | pair                   | routine                                    |
 * |------------------------|--------------------------------------------|
 * | sphere–sphere          | centre distance                            |
 * | sphere–capsule         | point–segment                              |
 * | capsule–capsule        | segment–segment, 2 points when parallel    |
 * | sphere–box             | closest point in the box frame             |
 * | box–box                | SAT + face clipping (≤ 4 points)           |
 * | capsule–box            | segment–box closest pair / SAT, face clip  |
 * | everything else        | GJK/EPA + supporting-feature clipping      |
 */
import { boxBox, sphereBox } from './boxes';
import { capsuleBox } from './capsuleBox';
import { convexConvex } from './convex';
import { flipManifold } from './manifold';
import { capsuleCapsule, sphereCapsule, sphereSphere } from './roundShapes';
import { ShapeKind, type CollideFn, type ContactManifoldData, type WorldShape } from './types';

const KINDS = 5;
const table: CollideFn[] = new Array<CollideFn>(KINDS * KINDS).fill(convexConvex);
table[ShapeKind.sphere * KINDS + ShapeKind.sphere] = sphereSphere;
table[ShapeKind.sphere * KINDS + ShapeKind.capsule] = sphereCapsule;
table[ShapeKind.capsule * KINDS + ShapeKind.capsule] = capsuleCapsule;
table[ShapeKind.sphere * KINDS + ShapeKind.box] = sphereBox;
table[ShapeKind.box * KINDS + ShapeKind.box] = boxBox;
table[ShapeKind.capsule * KINDS + ShapeKind.box] = capsuleBox;

/** Contact between a and b (any kinds), normal a → b; see types.ts. Returns out.count. */
export function collide(a: WorldShape, b: WorldShape, margin: number, out: ContactManifoldData): number {
  if (a.kind <= b.kind) return table[a.kind * KINDS + b.kind]!(a, b, margin, out);
  const n = table[b.kind * KINDS + a.kind]!(b, a, margin, out);
  if (n > 0) flipManifold(out);
  return n;
}
