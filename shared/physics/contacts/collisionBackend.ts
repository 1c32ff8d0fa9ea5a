/**
 * What the contact solver needs from the collision module (shared/physics/collision), as one object so the
 * solver can be tested against hand-made geometry and a world can be built with another collider.
 */
import type { BroadPhaseResult, CollideFn, CollideGroundFn, PairExclusion, RayHitData, WorldShape } from '../collision';

/** Writes the candidate pairs of `shapes[0..count−1]` into its own `pairs`/`pairCount`. */
export interface BroadPhase extends BroadPhaseResult {
  update(shapes: readonly WorldShape[], count: number, exclusion?: PairExclusion): number;
}

export interface CollisionBackend {
  collide: CollideFn;
  collideGround: CollideGroundFn;
  createBroadPhase(): BroadPhase;
  raycastShape(shape: WorldShape, origin: ArrayLike<number>, direction: ArrayLike<number>, maxDistance: number, out: RayHitData): boolean;
  raycastGround(height: number, origin: ArrayLike<number>, direction: ArrayLike<number>, maxDistance: number, out: RayHitData): boolean;
}
