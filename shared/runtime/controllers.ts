/**
 * The controller extension point. A rig's `controllers` entries are run every step, before the motors, by
 * an implementation registered for their `type`. shared/runtime knows only this interface; the cyclic
 * path gait (shared/gait) registers itself:
 *
 *   registerControllerType('cyclicPath', (config, ctx) => new CyclicPathController(config, ctx));
 *
 * A Simulation resolves each controller's factory from `options.controllers[type]` first, then from this
 * registry. A controller reads the current pose through `ctx.world` (positions, rotations, joint angles by
 * handle) and writes motor targets only through `step.setMotorTarget`, so the Simulation stays the one
 * owner of motors (limp / power, snapshots). A controller must be deterministic and keep all of its state
 * in what `snapshot()` returns (plain JSON-like data), so `Simulation.restore` brings it back exactly.
 */
import type { ReadonlyQuat } from '../math/quat';
import type { Transform } from '../math/transform';
import type { ReadonlyVec3 } from '../math/vec3';
import type { BodyHandle, JointHandle, PhysicsWorld } from '../physics/types';
import type { RigController, RigDocument } from '../rig/schema';

/** What a controller may read, fixed for the Simulation's lifetime. */
export interface ControllerContext {
  readonly rig: RigDocument;
  /** Read the current state (getPosition, getRotation, getJointAngle, …). Do not add or remove bodies. */
  readonly world: PhysicsWorld;
  bodyHandle(name: string): BodyHandle;
  jointHandle(name: string): JointHandle;
  /** World transform of each body at the rest pose, placement applied (the frame controlPoints refer to). */
  readonly restBodies: ReadonlyMap<string, Transform>;
  /** The neutral motor target of a joint (its rest pose): ball → quaternion S, hinge/prismatic → number. */
  restTarget(joint: string): ReadonlyQuat | number;
  /** Fixed step (s) = rig.simulation.dt. */
  readonly dt: number;
}

/** Per-step services. */
export interface ControllerStep {
  /** Simulated time (s) at the start of this step. */
  readonly time: number;
  readonly dt: number;
  /** Motor target for a joint of the rig (ball: quaternion S of frame B relative to frame A; hinge: rad;
   *  prismatic: m). Ignored while that joint's motor is switched off (limp). */
  setMotorTarget(joint: string, target: ReadonlyQuat | number): void;
}

export interface ControllerInstance {
  /** Current phase in cycles, [0, 1), reported in the trace (`controllers.NAME.phase`). */
  readonly phase: number;
  /** Called once per Simulation.step(), before the physics step. */
  step(step: ControllerStep): void;
  /** Steering target (m, world), or null to go straight. Simulation.setTarget forwards here. */
  setTarget(target: ReadonlyVec3 | null): void;
  /** All mutable state as plain data; restore(snapshot()) must reproduce the future exactly. */
  snapshot(): unknown;
  restore(state: unknown): void;
}

export type ControllerFactory<C extends RigController = RigController> = (config: C, ctx: ControllerContext) => ControllerInstance;

export type ControllerType = RigController['type'];
type FactoryOf<T extends ControllerType> = ControllerFactory<Extract<RigController, { type: T }>>;

const registry = new Map<ControllerType, ControllerFactory>();

/** Register the implementation of a controller type (replaces an earlier one; returns an unregister). */
export function registerControllerType<T extends ControllerType>(type: T, factory: FactoryOf<T>): () => void {
  registry.set(type, factory as ControllerFactory);
  return () => { if (registry.get(type) === (factory as ControllerFactory)) registry.delete(type); };
}

/** The registered implementation of a type, if any. */
export function controllerFactory(type: ControllerType): ControllerFactory | undefined {
  return registry.get(type);
}

/** Per-simulation overrides (`createSimulation(rig, { controllers: { cyclicPath: factory } })`). */
export type ControllerFactories = { [T in ControllerType]?: FactoryOf<T> };
