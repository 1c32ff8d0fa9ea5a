/**
 * Plugs the cyclic-path gait into the rig runtime's controller extension point (shared/runtime/controllers):
 * `registerCyclicPathController()` once at start-up, or pass `cyclicPathControllerFactory` in
 * `createSimulation(rig, { controllers: { cyclicPath: cyclicPathControllerFactory } })`.
 */
import { registerControllerType, type ControllerContext, type ControllerFactory, type ControllerInstance, type ControllerStep } from '../runtime/controllers';
import type { CyclicPathController as CyclicPathControllerDoc } from '../rig/schema';
import type { ReadonlyVec3 } from '../math/vec3';
import { CyclicPathController } from './controller';
import type { SteeringLawState } from './steeringLaw';
import type { ArrivalState } from './arrival';
import { chainFromRig, paramsFromRig } from './rigChain';

interface SavedState { phase: number; target: [number, number, number] | null; steering: SteeringLawState; arrival?: ArrivalState }

/** The runtime instance; `controller` exposes the live path and last frame for overlays and plots. */
export type CyclicPathInstance = ControllerInstance & { readonly controller: CyclicPathController };

export const cyclicPathControllerFactory: ControllerFactory<CyclicPathControllerDoc> = (config, ctx: ControllerContext): CyclicPathInstance => {
  const chain = chainFromRig(ctx.rig, config);
  const controller = new CyclicPathController(paramsFromRig(config), {
    root: ctx.bodyHandle(config.root),
    joints: config.chain.map((j) => ctx.jointHandle(j)),
    chain,
  });
  return {
    controller,
    get phase() { return controller.phase; },
    step(step: ControllerStep) {
      controller.step(ctx.world, step.dt, (i, v) => step.setMotorTarget(config.chain[i]!, v));
    },
    setTarget(target: ReadonlyVec3 | null) { controller.setSteeringTarget(target); },
    snapshot(): SavedState {
      const t = controller.steeringTarget;
      const arrival = controller.arrivalState();
      return { phase: controller.phase, target: t ? [t[0], t[1], t[2]] : null, steering: controller.steeringState(), ...(arrival ? { arrival } : {}) };
    },
    restore(state: unknown) {
      const s = state as SavedState;
      controller.reset(s.phase, s.steering, s.arrival);
      controller.setSteeringTarget(s.target);
    },
  };
};

/** Register 'cyclicPath' with the runtime; returns the unregister function. */
export const registerCyclicPathController = (): (() => void) => registerControllerType('cyclicPath', cyclicPathControllerFactory);
