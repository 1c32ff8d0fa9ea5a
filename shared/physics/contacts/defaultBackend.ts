/** The collision backend a World uses unless it is given one: the collision module's sweep-and-prune broad
 *  phase, narrow phase, ground plane and analytic ray casts. */
import { collide, collideGround, raycastGround, raycastShape, SweepAndPrune } from '../collision';
import type { CollisionBackend } from './collisionBackend';

export const defaultCollisionBackend: CollisionBackend = {
  collide,
  collideGround,
  createBroadPhase: () => new SweepAndPrune(),
  raycastShape,
  raycastGround,
};
