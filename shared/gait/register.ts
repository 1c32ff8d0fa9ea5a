/**
 * Plugs the cyclic-path gait into the rig runtime's controller extension point (shared/runtime/controllers):
 * `registerCyclicPathController()` once at start-up, or pass `cyclicPathControllerFactory` in
 * `createSimulation(rig, { controllers: { cyclicPath: cyclicPathControllerFactory } })`.
 */
import { registerControllerType, type ControllerContext, type ControllerFactory, type ControllerInstance, type ControllerStep } from '../runtime/controllers';
import type { CyclicPathController as CyclicPathControllerDoc } from '../rig/schema';
import type { ReadonlyVec3 } from '../math/vec3';
import type { Quat } from '../math/quat';
import { CyclicPathController, arrivalParams } from './controller';
import type { SteeringLawState } from './steeringLaw';
import type { ArrivalState } from './arrival';
import { chainFromRig, paramsFromRig } from './rigChain';
import { CyclicPath } from './cyclicPath';
import { GaitGroup } from './gaitGroup';
import { pathStrokeCentre, pathTravelDirection } from './steering';

interface SavedState { phase: number; target: [number, number, number] | null; steering: SteeringLawState; arrival?: ArrivalState }

/** The runtime instance; `controller` exposes the live path and last frame for overlays and plots. */
export type CyclicPathInstance = ControllerInstance & { readonly controller: CyclicPathController };

export const cyclicPathControllerFactory: ControllerFactory<CyclicPathControllerDoc> = (config, ctx: ControllerContext): CyclicPathInstance => {
  const chain = chainFromRig(ctx.rig, config);
  const group = gaitGroupOf(config, ctx);
  const controller = new CyclicPathController(paramsFromRig(config), {
    root: ctx.bodyHandle(config.root),
    joints: config.chain.map((j) => ctx.jointHandle(j)),
    chain,
  }, group ? { group } : {});
  // One motor-target callback for the instance's life (not a closure per step): it reads the step in hand.
  let current: ControllerStep | null = null;
  const setTarget = (i: number, v: Quat | number): void => current!.setMotorTarget(config.chain[i]!, v);
  return {
    controller,
    get phase() { return controller.phase; },
    step(step: ControllerStep) {
      current = step;
      try { controller.step(ctx.world, step.dt, setTarget); } finally { current = null; }
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

/** The gait groups of each Simulation (its ControllerContext), by root body name. */
const groups = new WeakMap<ControllerContext, Map<string, GaitGroup>>();

/**
 * The multi-limb group a controller belongs to (gaitGroup.ts): the enabled cyclicPath controllers on its root,
 * when there are two or more; null for a single limb (its gait is unchanged) or a disabled controller. The
 * group's steering law and its arrival (stopRadius …) take the first member's steering numbers.
 */
function gaitGroupOf(config: CyclicPathControllerDoc, ctx: ControllerContext): { group: GaitGroup; member: number } | null {
  if (!config.enabled) return null;
  const members = ctx.rig.controllers.filter((c): c is CyclicPathControllerDoc => c.type === 'cyclicPath' && c.enabled && c.root === config.root);
  if (members.length < 2) return null;
  let byRoot = groups.get(ctx);
  if (!byRoot) { byRoot = new Map(); groups.set(ctx, byRoot); }
  let group = byRoot.get(config.root);
  if (!group) {
    const paths = members.map((m) => new CyclicPath(m.controlPoints, m.interpolation, 32, `controller "${m.name}": controlPoints`));
    const lead = members[0]!.steering;
    group = new GaitGroup({ gain: lead.gain, maxAngle: lead.maxAngle, window: lead.window ?? 0, rateGain: lead.rateGain ?? 0 },
      paths.map((p) => pathTravelDirection(p)), paths.map((p) => pathStrokeCentre(p)), members.map((m) => m.name),
      arrivalParams(lead, `controller "${members[0]!.name}"`));
    byRoot.set(config.root, group);
  }
  return { group, member: members.findIndex((m) => m.name === config.name) };
}

/** Register 'cyclicPath' with the runtime; returns the unregister function. */
export const registerCyclicPathController = (): (() => void) => registerControllerType('cyclicPath', cyclicPathControllerFactory);
