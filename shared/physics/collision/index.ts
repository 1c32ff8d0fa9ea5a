/** Public surface of the collision module. See types.ts for the conventions (normal A→B, depth sign). */
export * from './types';
export { createWorldShape, updateWorldShape } from './shape';
export { ContactManifold } from './manifold';
export { collide } from './narrowphase';
export { collideGround } from './ground';
export { SweepAndPrune, BodyPairSet, bruteForcePairs } from './broadphase';
export { HashGrid } from './hashGrid';
export { FatPairs, FAT_MARGIN } from './fatPairs';
export { RayHit, raycastShape, raycastGround } from './raycast';
