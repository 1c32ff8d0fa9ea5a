/**
 * The scenario harness: the shipped Armed Mine rig run headless through the runtime (createSimulation with
 * the cyclic-path gait), plus the measurements the scenarios make — all through the Simulation's and the
 * World's public read API.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadRig, type RigDocument } from '../../../shared/rig';
import { createSimulation, type Simulation } from '../../../shared/runtime/simulation';
import type { ControllerContext } from '../../../shared/runtime/controllers';
import { cyclicPathControllerFactory, type CyclicPathInstance } from '../../../shared/gait/register';
import { headingYaw, signedYawBetween, yawDirection } from '../../../shared/gait/steering';
import type { BodyHandle, JointHandle } from '../../../shared/physics/types';
import type { ReadonlyVec3 } from '../../../shared/math/vec3';

export const RIG_PATH = fileURLToPath(new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url));
export const loadArmedMine = (): RigDocument => loadRig(JSON.parse(readFileSync(RIG_PATH, 'utf8')), { source: RIG_PATH });

export interface Mine {
  sim: Simulation;
  body(name: string): BodyHandle;
  joint(name: string): JointHandle;
  /** The gait controller instance (path, phase, last frame). */
  gait: CyclicPathInstance;
}

export function mineSimulation(rig: RigDocument = loadArmedMine()): Mine {
  let ctx: ControllerContext | undefined;
  let gait: CyclicPathInstance | undefined;
  const sim = createSimulation(rig, {
    controllers: {
      cyclicPath: (config, c) => { ctx = c; gait = cyclicPathControllerFactory(config, c) as CyclicPathInstance; return gait; },
    },
  });
  if (!ctx || !gait) throw new Error('the Armed Mine rig has no cyclicPath controller');
  const c = ctx;
  return { sim, body: (n) => c.bodyHandle(n), joint: (n) => c.jointHandle(n), gait };
}

/** Horizontal distance (m) from the mine's body to a point. */
export function distanceTo(m: Mine, p: ReadonlyVec3): number {
  const b = m.sim.bodyPose('body').position;
  return Math.hypot(b[0] - p[0], b[2] - p[2]);
}

/** Signed angle (rad) from the body's heading to the direction from the body to the point. */
export function headingError(m: Mine, p: ReadonlyVec3): number {
  const pose = m.sim.bodyPose('body');
  return signedYawBetween(yawDirection(headingYaw(pose.rotation)), [p[0] - pose.position[0], 0, p[2] - pose.position[2]]);
}

/** Does the hand touch the floor (a ground contact on the hand body) after the last step? */
export function handOnFloor(m: Mine): boolean {
  const hand = m.body('hand');
  return m.sim.world.getContacts().some((c) => (c.bodyA === hand && c.bodyB === null) || (c.bodyB === hand && c.bodyA === null));
}

/** Per step: the largest joint anchor error (m) and whether any motor reported more torque than its limit. */
export function jointReport(m: Mine): { maxError: number; overLimit: string | null } {
  const f = m.sim.frame();
  let maxError = 0, overLimit: string | null = null;
  for (const [name, j] of Object.entries(f.joints)) {
    maxError = Math.max(maxError, j.error);
    if (j.torque > j.maxTorque * (1 + 1e-9) + 1e-9) overLimit = `${name}: ${j.torque} N·m > ${j.maxTorque} N·m`;
  }
  return { maxError, overLimit };
}
