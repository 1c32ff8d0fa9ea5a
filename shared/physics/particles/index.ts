/** The Jakobsen/Verlet particle ragdoll (seed 001), beside the rigid solver: scene format, builders from a
 *  skeleton or a RigDocument, and the running simulation. See docs/particles.md. */
export { createParticleSimulation, DEFAULT_ITERATIONS, type ParticleSimulation, type ParticleTraceFrame, type BonePick, type ParticleSnapshot, type GrabInfo } from './simulation';
export { DEFAULT_DRIVE, type DriveSettings } from './drive';
export type { GrabSpring } from './grab';
export { loadParticleScene, checkSceneSemantics, ParticleSceneError, particleSceneSchema, PARTICLE_SCENE_FORMAT, PARTICLE_SCENE_VERSION, type ParticleScene, type ParticleConstraint, type ScheduledImpulse } from './scene';
export { particleSceneFromRig, particleSceneFromSkeleton, DEFAULT_PARTICLE_SETTINGS, type BoneLimits, type SkeletonParticleOptions } from './fromRig';
export { particleTraceColumns, particleTraceValues } from './trace';
