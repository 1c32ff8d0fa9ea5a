/** The Jakobsen/Verlet particle ragdoll (seed 001), beside the rigid solver: the scene format and the running
 *  simulation, built from a scene (its settings) only — no rig, no runtime. The builders from a skeleton or
 *  a RigDocument live in shared/runtime/particles.ts. See docs/particles.md. */
export { createParticleSimulation, DEFAULT_ITERATIONS, type ParticleSimulation, type ParticleTraceFrame, type BonePick, type ParticleSnapshot, type GrabInfo } from './simulation';
export { DEFAULT_DRIVE, type DriveSettings } from './drive';
export type { GrabSpring } from './grab';
export { loadParticleScene, checkSceneSemantics, ParticleSceneError, particleSceneSchema, PARTICLE_SCENE_FORMAT, PARTICLE_SCENE_VERSION, type ParticleScene, type ParticleConstraint, type ScheduledImpulse } from './scene';
export { particleTraceColumns, particleTraceValues } from './trace';
