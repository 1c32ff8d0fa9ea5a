/** The collision backend a World uses unless it is given one: the collision module's hashed-grid broad
 *  phase (linear in the shape count for any layout; sweep and prune grows as N²/columns on a grid of
 *  ragdolls), narrow phase, ground plane and analytic ray casts. */
import { collide, collideGround, HashGrid, raycastGround, raycastShape } from '../collision';
import type { CollisionBackend } from './collisionBackend';

export const defaultCollisionBackend: CollisionBackend = {
  collide,
  collideGround,
  createBroadPhase: () => new HashGrid(),
  raycastShape,
  raycastGround,
};
