/**
 * The collision backend a World uses unless it is given one. Until the collision module exports its narrow
 * phase, broad phase and ray casts, this backend finds no contacts and no ray hits (bodies fall through the
 * ground); World's second constructor argument takes a real backend.
 */
import type { CollisionBackend } from './collisionBackend';

const EMPTY = { pairs: new Int32Array(0), pairCount: 0 };

export const defaultCollisionBackend: CollisionBackend = {
  collide: (_a, _b, _margin, out) => (out.count = 0),
  collideGround: (_s, _h, _margin, out) => (out.count = 0),
  createBroadPhase: () => ({ update: () => EMPTY }),
  raycastShape: () => false,
  raycastGround: () => false,
};
