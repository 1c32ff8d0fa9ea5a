/**
 * What the contact solver needs from the collision module (shared/physics/collision), as one object so the
 * solver can be tested against hand-made geometry and the world can be built with a different collider.
 */
import type { BroadPhaseResult, CollideFn, CollideGroundFn, PairExclusion, RayHitData, WorldShape } from '../collision';

export interface BroadPhase {
  update(shapes: readonly WorldShape[], count: number, exclusion?: PairExclusion): BroadPhaseResult;
}

export interface CollisionBackend {
  collide: CollideFn;
  collideGround: CollideGroundFn;
  createBroadPhase(): BroadPhase;
  raycastShape(shape: WorldShape, origin: ArrayLike<number>, direction: ArrayLike<number>, maxDistance: number, out: RayHitData): boolean;
  raycastGround(height: number, origin: ArrayLike<number>, direction: ArrayLike<number>, maxDistance: number, out: RayHitData): boolean;
}
