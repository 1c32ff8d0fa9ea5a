/**
 * @marionette runtime entry (package "exports" "."): load a rig JSON and run it, exactly as the editor's
 * preview does. Pure TypeScript: no DOM, no Node, no three.js. See docs/runtime.md.
 *
 *   import { loadRig, createSimulation } from 'marionette';
 *   const sim = createSimulation(loadRig(json));
 *   sim.step(); const poses = sim.bonePoses('local');
 *
 * Importing this entry registers the built-in controller types (the cyclic-path gait), so rigs with
 * controllers run without further setup. Code that imports shared/runtime directly registers them itself
 * (registerCyclicPathController from shared/gait/register, or options.controllers).
 */
import { registerCyclicPathController } from './gait/register';

export * from './rig';
export * from './runtime';
export { registerCyclicPathController, cyclicPathControllerFactory } from './gait/register';
/** The particle (Jakobsen/Verlet) solver: scenes, particle rigs, createParticleSimulation (docs/particles.md).
 *  The package's createParticleSimulation is the runtime's, which takes a RigDocument or a scene. */
export * from './physics/particles';
export {
  createParticleSimulation, particleSceneFromRig, particleSceneFromSkeleton, DEFAULT_PARTICLE_SETTINGS,
  type BoneLimits, type SkeletonParticleOptions,
} from './runtime/particles';
export type { Vec3, ReadonlyVec3 } from './math/vec3';
export type { Quat, ReadonlyQuat } from './math/quat';
export type { Transform } from './math/transform';

registerCyclicPathController();
